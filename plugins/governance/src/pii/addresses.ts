/**
 * Postal addresses by value: a house number next to a street type of one of the supported locales,
 * a Japanese block address, or a postal code next to a place name. Street types are whole words
 * (`Rue`, `Calle`, `Road`) or German compound endings (`Liebeltweg`, `Hauptstr.`).
 */

/** street types written after the name, number first (en: `12 Baker Street`; fr uses them before: `21 Impasse de Vaugirard`) */
const NUMBER_FIRST_TYPES =
  'street|st|avenue|ave|av|road|rd|lane|ln|drive|dr|court|ct|boulevard|blvd|bd|way|place|pl|terrace|ter|close|crescent|cres|square|sq|parkway|pkwy|circle|cir|trail|trl|highway|hwy|mews|grove|gardens|gdns|row|walk|green|loop|pike|ridge|plaza|hill|hills|park|view|vista|run|path|pass|alley|bypass|causeway|centre|center|common|commons|corner|corners|cove|creek|crossing|crossroad|dale|dam|divide|estate|estates|expressway|extension|extensions|falls|ferry|field|fields|flat|flats|ford|fords|forest|fork|forks|fort|freeway|garden|gateway|glen|glens|harbor|harbour|haven|heights|hollow|inlet|island|islands|isle|junction|junctions|key|keys|knoll|knolls|lake|lakes|landing|light|lights|lock|locks|lodge|manor|manors|meadow|meadows|mill|mills|mission|motorway|mount|mountain|mountains|neck|orchard|oval|overpass|parade|passage|pines|plain|plains|point|points|port|ports|prairie|radial|ramp|ranch|rapid|rapids|rest|river|route|shoal|shoals|shore|shores|skyway|spring|springs|spur|spurs|station|stravenue|stream|summit|throughway|trace|track|trafficway|tunnel|turnpike|underpass|union|unions|valley|valleys|viaduct|villa|village|villages|ville|wall|well|wells|wharf|rise|gate|yard|wood|woods|brook|brooks|bridge|burg|burgs|bluff|bluffs|bottom|branch|canyon|cape|cliff|cliffs|club|curve|drives|mall|ways|vale|wynd|chase|drove|fold|garth|gate|lea|nook|wharf|bank|quay|' +
  'rue|allée|allee|impasse|chemin|quai|cours|passage|voie|sentier|esplanade|faubourg|hameau|montée|promenade|résidence|parvis|cité|rond-point|route|boulevard|avenue|place';
/** street types written before the name, number after (es, pt, it, de words, nl) */
const NUMBER_AFTER_TYPES =
  'calle|c/|puente|quinta|ramal|sección|seccion|rampa|pasadizo|plazuela|paraje|arrabal|rincón|lugar|rúa|avenida|avda|av|plaza|pza|paseo|camino|ronda|travesía|travesia|carretera|ctra|glorieta|callejón|callejon|urbanización|urbanizacion|urb|pasaje|rambla|vía|via|cuesta|alameda|bajada|sector|partida|polígono|poligono|barrio|carrera|cañada|muelle|subida|vereda|' +
  'rua|r|travessa|tv|praça|praca|rodovia|estrada|largo|marginal|viela|ladeira|vila|quadra|beco|viaduto|conjunto|condomínio|' +
  'viale|piazza|corso|vicolo|contrada|borgo|strada|piazzale|' +
  'ul|ulica|al|aleja|pl|plac|os|osiedle|bulw|bulwar|rondo|rynek|ogród|wyspa|skwer|droga|szosa|wybrzeże|' +
  'am|an der|auf dem|auf der|auf\'m|im|in der|zum|zur|' +
  'rue|avenue|boulevard|place|chemin|impasse|allée|quai|route';
/** German and Dutch street names end in their type: Hauptstraße, Liebeltweg, Max-Liebermann-Str. */
const COMPOUND_ENDINGS = 'gatan|gata|vägen|väg|gränden|gränd|allén|torget|torg|stigen|backen|platsen|leden|straße|strasse|str\\.|weg|gasse|platz|allee|ring|damm|ufer|chaussee|steig|pfad|markt|berg|hof|feld|garten|park|brücke|graben|tor|kamp|stieg|zeile|promenade|anger|winkel|grund|höhe|siedlung|straat|laan|plein|gracht|kade|singel|dijk|hof|pad';

const HOUSE_NO = '\\d{1,5}(?:\\s?[a-zA-Z](?![a-zA-Z]))?(?:\\s?(?:bis|ter))?(?:[/-]\\d{1,4})?';
const WORD = "[\\p{L}\\p{M}'’.-]+";
/**
 * The street patterns, made on first use: the RegExp constructor parses a case-folded Unicode
 * pattern at once, and these six took 2-3 ms of every `basin start` and sync (issue 19), which load
 * this module long before any value is scanned.
 */
let streetPatterns: RegExp[] | null = null;
const makeStreetPatterns = (): RegExp[] => [
  // number first, the type after the name (`12 Baker Street`)
  new RegExp(`^${HOUSE_NO},?\\s+(?:${WORD}\\s+){0,5}?(?:${NUMBER_FIRST_TYPES})\\.?(?=[\\s,]|$)`, 'iu'),
  // French: the type before the name, number first (`21 Impasse de Vaugirard`)
  new RegExp(`^${HOUSE_NO},?\\s+(?:${NUMBER_FIRST_TYPES})\\.?\\s+\\S`, 'iu'),
  // the type first, the number after the name (`Calle Mayor 5`, `Rua Augusta, 12`)
  new RegExp(`(?:^|,\\s*)(?:${NUMBER_AFTER_TYPES})\\.?\\s+(?:${WORD},?\\s+){0,5}?(?:n[º°o]\\.?\\s*)?(?:${HOUSE_NO}|s/n)(?=[\\s,]|$)`, 'iu'),
  // German and Dutch compounds: Hauptstraße 5, Liebeltweg 12
  new RegExp(`(?:^|\\s|,)\\p{L}[\\p{L}\\p{M}-]*(?:${COMPOUND_ENDINGS})\\s+${HOUSE_NO}(?=[\\s,]|$)`, 'iu'),
  // number first, then one of those types (`5 Calle Mayor`)
  new RegExp(`^${HOUSE_NO},?\\s+(?:${NUMBER_AFTER_TYPES})\\.?\\s+\\S`, 'iu'),
  // German and Swedish street types as their own word after the name: `Apenrader Str. 17c`, `Dahlbergs Väg 53`
  new RegExp(`(?:^|\\s)(?:str\\.|straße|strasse|weg|gasse|platz|allee|ring|damm|ufer|väg|vägen|gata|gatan|gränd|torg)\\s+${HOUSE_NO}(?=[\\s,]|$)`, 'iu'),
];
/** a number followed by a flat, floor or lot: `Apt. 337`, `3º Izda.`, `Lote 19`, `2 étage` */
const UNIT = /\d+[a-z]?,?\s+(?:apt\.?|apartment|suite|unit|flat|lote|quadra|bloco|andar|étage|etage|og|zimmer|piso|puerta|bajo|izda\.?|dcha\.?)\s+\S|\d+\s?º\s*(?:izda|dcha|[A-H])\b/iu;
/** Japanese addresses: prefecture, city/ward, chōme/ban/gō blocks */
const JAPANESE = /(\d+丁目|\d+番地?|\d+号(?!室)|[都道府県].{0,8}[市区町村郡]|[市区町村].{0,8}\d+[-−－]\d+)/u;

/** postal-code shapes: US ZIP(+4), BR CEP, UK postcode, JP, NL, PL, and 4-5 digit continental codes */
const POSTAL = /(^|[\s,])(\d{5}-\d{4}|\d{5}-\d{3}|\d{2}-\d{3}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|〒?\d{3}-\d{4}|\d{4}\s?[A-Z]{2}|\d{4,5})(?=[\s,]|$)/u;
const PLACE = /\p{Lu}[\p{Ll}\p{M}]+/u;

/** How much a value looks like a postal address, 0..1. */
export function addressScore(raw: string): number {
  const v = raw.trim();
  if (v.length < 6 || v.length > 200 || !/\d/.test(v)) return 0;
  if (JAPANESE.test(v)) return 1;
  // every pattern below needs a space, a comma or º (`customer_7919`, `2024-01-01` have none): ids and
  // codes stop here, before V8 compiles the large case-folded alternations (20-40 ms on first use)
  if (!/[\s,º]/u.test(v)) return 0;
  if ((streetPatterns ??= makeStreetPatterns()).some((re) => re.test(v))) return 1;
  if (UNIT.test(v)) return 0.8;
  // "00180 Motril", "Northeim, 67837": a postal code beside a place name, with a comma or at the start
  const parts = v.split(',').map((p) => p.trim());
  if (parts.length >= 2 && POSTAL.test(v) && PLACE.test(v)) return 0.6;
  if (/^(\d{4,5}|\d{5}-\d{3})\s+\p{Lu}[\p{Ll}\p{M}]+/u.test(v)) return 0.6;
  return 0;
}

/** street types that are not also family names (Hill, Green, Ford are both) */
const UNAMBIGUOUS_LAST = /\s(street|st\.?|avenue|ave\.?|road|rd\.?|boulevard|blvd\.?|drive|court|crescent|terrace|mews|burgs?|junctions?|plaza|parkway|circle|trail|highway|alley|square|place|lane|close|estates?|extensions?|heights|villages?|ville|loop|pike|causeway|expressway|freeway|gardens|turnpike|straße|strasse|weg|gasse|allee|gatan|vägen|väg|gata|straat|laan)$/iu;
const UNAMBIGUOUS_FIRST = /^(via|viale|piazza|corso|vicolo|rua|travessa|praça|rodovia|calle|avenida|paseo|ronda|plaza|camino|carretera|rue|allée|impasse|chemin|quai|boulevard|avenue|ul\.|ulica|aleja|al\.|plac|osiedle|rondo|rynek)\s/iu;

/** A street's name without a number (`Via Rossi`, `Kathleen Burgs`): an address part, not a person's name. */
export const isStreetName = (v: string): boolean => UNAMBIGUOUS_FIRST.test(v.trim()) || UNAMBIGUOUS_LAST.test(v.trim());
