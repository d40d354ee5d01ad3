import type { EntityType } from './types.js';

/** Masks a value so a finding can show its shape without revealing it. Never returns the input. */
export function maskValue(entity: EntityType, raw: string): string {
  const v = raw.trim();
  switch (entity) {
    case 'email': {
      const at = v.lastIndexOf('@');
      const local = v.slice(0, at);
      const domain = v.slice(at + 1);
      const dot = domain.lastIndexOf('.');
      return `${local[0] ?? ''}***@${domain[0] ?? ''}***${dot >= 0 ? domain.slice(dot) : ''}`;
    }
    case 'credit_card': {
      const d = v.replace(/\D/g, '');
      return `**** **** **** ${d.slice(-4)}`;
    }
    case 'iban': {
      const s = v.replace(/ /g, '');
      return `${s.slice(0, 2)}** **** **** ${s.slice(-2)}`;
    }
    case 'phone':
    case 'national_id': {
      // keep separators and the last two digits so the format stays recognisable
      const total = v.replace(/\D/g, '').length;
      let seen = 0;
      return v.replace(/[0-9A-Za-z]/g, (ch) => (/\d/.test(ch) && ++seen > total - 2 ? ch : '*'));
    }
    case 'ip_address':
      return v.includes(':') ? `${v.split(':')[0]}:****:****` : `${v.split('.')[0]}.***.***.***`;
    case 'person_name':
      return v
        .split(/\s+/)
        .map((t) => `${t[0] ?? ''}***`)
        .join(' ');
    default:
      return v.length <= 2 ? '***' : `${v[0]}***`;
  }
}
