// Chess.com Published-Data API as documented (chess.com/news/view/published-data-api: "Player
// Profile" /pub/player/{username}, "List of Monthly Archives" {archives:[url]}, "Complete Monthly
// Archives" /pub/player/{username}/games/{YYYY}/{MM} {games:[...]}; 429 on too many requests).
import { after } from 'node:test';
import { FakeVendor, runVendorSuite } from '@basin/sdk/testkit';
import source from '../src/index.js';

const month = (m: number) => `2024/${String(m).padStart(2, '0')}`;
const endTime = (m: number, i: number) => Date.UTC(2024, m - 1, 1 + (i % 27)) / 1000 + i;

// players are not account data: an "empty account" is players without games
const players: Record<string, unknown>[] = [];

const fake = new FakeVendor({
  routes: {
    'GET /pub/player/:user': (req, f) => {
      const p = players.find((x) => x.username === req.params.user);
      return p ? { body: p } : { status: 404, body: { code: 0, message: `User "${req.params.user}" not found.` } };
    },
    'GET /pub/player/:user/games/archives': (req, f) => {
      const months = [...new Set(f.table('games').filter((g) => g.player === req.params.user).map((g) => g.month as string))].sort();
      return { body: { archives: months.map((m) => `${f.url}/pub/player/${req.params.user}/games/${m}`) } };
    },
    'GET /pub/player/:user/games/:yyyy/:mm': (req, f) => ({
      body: { games: f.table('games').filter((g) => g.player === req.params.user && g.month === `${req.params.yyyy}/${req.params.mm}`).map(({ player: _p, month: _m, ...g }) => g) },
    }),
  },
  authorize: () => true,
});
await fake.start();
after(() => fake.stop());

const game = (player: string, m: number, i: number) => ({
  player,
  month: month(m),
  url: `https://www.chess.com/game/live/${m}${String(i).padStart(5, '0')}${player.length}`,
  pgn: '1. e4 e5',
  time_control: '600',
  end_time: endTime(m, i),
  rated: true,
  white: { username: player, rating: 1500 + i, result: 'win' },
  black: { username: 'opponent', rating: 1490, result: 'checkmated' },
});

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: `${fake.url}/pub`, players: ['magnuscarlsen', 'hikaru'] }),
  env: {},
  seed() {
    players.length = 0;
    for (const [i, u] of ['magnuscarlsen', 'hikaru'].entries()) players.push({ player_id: 1000 + i, username: u, name: u, status: 'premium', last_online: 1_717_000_000 + i, joined: 1_300_000_000 });
    for (let m = 1; m <= 3; m++) for (let i = 0; i < 40; i++) fake.table('games').push(game('magnuscarlsen', m, i));
    for (let i = 0; i < 5; i++) fake.table('games').push(game('hikaru', 2, i));
  },
  incremental: {
    resource: 'players_games',
    addNewer: () => void fake.table('games').push(game('magnuscarlsen', 4, 1)),
    reads: (req) => /\/games\/\d{4}\/\d{2}$/.test(req.path),
    // only the month of the last game read and later months
    asksOnlyNewer: (req) => req.path.slice(-7) >= (req.path.includes('hikaru') ? month(2) : month(3)),
  },
  addFieldMidStream() {
    for (const g of fake.table('games')) if (g.month !== month(1)) g.accuracies = { white: 91.2, black: 80.1 };
    return { resource: 'players_games', column: 'accuracies__white' };
  },
  emptyResources: ['players_games'],
  missingRequired: { config: {}, path: '/players' },
});
