export type EntityType =
  | 'email'
  | 'phone'
  | 'credit_card'
  | 'iban'
  | 'ip_address'
  | 'national_id'
  | 'person_name'
  | 'address'
  | 'date_of_birth';

/** One column judged to hold PII. Never holds a raw value: examples are masked. */
export interface PiiFinding {
  source: string;
  table: string;
  column: string;
  entity_type: EntityType;
  /** 0..1 */
  confidence: number;
  /** share of sampled non-null values that matched the detector, 0..1 (0 for a name-only finding) */
  matched_share: number;
  /** non-null values looked at */
  sample_count: number;
  masked_examples: string[];
}
