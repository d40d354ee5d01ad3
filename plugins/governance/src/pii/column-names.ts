import type { EntityType } from './types.js';

/**
 * Column-name heuristics: whole-name patterns over the snake_cased name, so `email` and
 * `customer_email` match but `email_opt_in` and `phone_model` do not.
 */
const RULES: Array<[EntityType, RegExp]> = [
  ['email', /^(.*_)?(e_?mail|email_address|mail_address)$/],
  ['phone', /^(.*_)?(phone|phone_number|phone_no|mobile|mobile_number|telephone|tel|cell|cell_phone|fax|msisdn)$/],
  ['credit_card', /^(.*_)?(credit_card|credit_card_number|card_number|cc_number|ccn|pan|card_no)$/],
  ['iban', /^(.*_)?(iban|bank_account|account_iban)$/],
  ['ip_address', /^(.*_)?(ip|ip_address|ipaddr|ip_addr|ipv4|ipv6|remote_addr)$/],
  ['national_id', /^(.*_)?(ssn|social_security_number|social_security|national_id|national_insurance_number|nino|tax_id|passport|passport_number|id_number)$/],
  ['person_name', /^(.*_)?(first_name|last_name|full_name|given_name|family_name|surname|firstname|lastname|fullname|middle_name|maiden_name)$|^(customer|contact|person|user|employee|owner|author|patient|client|recipient|sender)_name$|^name$/],
  ['address', /^(.*_)?(address|street|street_address|address_line_?[12]|postcode|postal_code|zip|zip_code|zipcode|home_address)$/],
  ['date_of_birth', /^(.*_)?(dob|date_of_birth|birth_date|birthdate|birthday)$/],
];

export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** The entity a column's name suggests, if any. `name` alone is weak (could be a product's name). */
export function entityFromColumnName(column: string): { entity: EntityType; strong: boolean } | null {
  const n = snake(column);
  for (const [entity, re] of RULES) if (re.test(n)) return { entity, strong: n !== 'name' };
  return null;
}
