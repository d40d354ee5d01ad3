import type { EntityType } from './types.js';

/**
 * Column-name hints in English, German, French, Spanish, Portuguese, Italian, Dutch and Japanese:
 * whole-name patterns over the snake_cased, accent-folded name, so `email` and `customer_email`
 * match but `email_opt_in` and `phone_model` do not.
 */
const RULES: Array<[EntityType, RegExp]> = [
  ['email', /^(.*_)?(e_?mail|email_address|mail_address|mail|correo|correo_electronico|courriel|adresse_mail|e_mail_adresse|mailadresse|posta_elettronica|メール|メールアドレス)$/],
  ['phone', /^(.*_)?(phone|phone_number|phone_no|mobile|mobile_number|telephone|tel|cell|cell_phone|fax|msisdn|telefon|telefonnummer|handy|mobil|mobilnummer|telefono|movil|celular|telefone|telemovel|portable|numero_de_telephone|cellulare|telefoon|電話|電話番号|携帯)$/],
  ['credit_card', /^(.*_)?(credit_card|credit_card_number|card_number|cc_number|ccn|pan|card_no|kreditkarte|kartennummer|tarjeta|numero_tarjeta|carte_bancaire|numero_carte|cartao|numero_cartao)$/],
  ['iban', /^(.*_)?(iban|bank_account|account_iban|bankverbindung|kontonummer|cuenta_bancaria|compte_bancaire|conta_bancaria)$/],
  ['ip_address', /^(.*_)?(ip|ip_address|ipaddr|ip_addr|ipv4|ipv6|remote_addr|ip_adresse|direccion_ip|adresse_ip|endereco_ip)$/],
  ['national_id', /^(.*_)?(ssn|social_security_number|social_security|national_id|national_insurance_number|nino|ni_number|tax_id|passport|passport_number|id_number|dni|nie|nif|cpf|rg|nir|insee|numero_secu|securite_sociale|steuer_id|steuerid|steuer_idnr|steueridentifikationsnummer|idnr|personalausweis|ausweisnummer|codice_fiscale|bsn|my_number|マイナンバー)$/],
  [
    'person_name',
    /^(.*_)?(first_name|last_name|full_name|given_name|family_name|surname|firstname|lastname|fullname|middle_name|maiden_name|vorname|nachname|familienname|prenom|nom_de_famille|nom_complet|apellido|apellidos|nombre_completo|primer_apellido|sobrenome|nome_completo|cognome|voornaam|achternaam|氏名|名前|姓|名|担当者|お名前|フリガナ|ローマ字|romaji_name|kana_name)$|^(customer|contact|person|user|employee|owner|author|patient|client|recipient|sender|lead|holder|member|cliente|kunde|kunden|titular|responsable|contacto|contato|destinatario|empfaenger|empfanger)(_name|_nombre|_nome|_nom)?$|^(name|nombre|nom|nome|naam)$/,
  ],
  ['address', /^(.*_)?(address|street|street_address|address_line_?[12]|postcode|postal_code|zip|zip_code|zipcode|home_address|anschrift|adresse|strasse|wohnort|direccion|domicilio|calle|codigo_postal|endereco|morada|logradouro|cep|rue|code_postal|indirizzo|adres|住所)$/],
  ['date_of_birth', /^(.*_)?(dob|date_of_birth|birth_date|birthdate|birthday|born|geburtsdatum|geburtstag|geboren|fecha_nacimiento|fecha_de_nacimiento|nacimiento|date_naissance|date_de_naissance|naissance|data_nascimento|data_de_nascimento|nascimento|data_di_nascita|geboortedatum|生年月日|誕生日)$/],
];

/** words of the person_name rule that name a role, not a name field (weak: the column may hold ids) */
const WEAK_NAMES = /^(name|nombre|nom|nome|naam|customer|contact|person|user|employee|owner|author|patient|client|recipient|sender|lead|holder|member|cliente|kunde|kunden|titular|responsable|contacto|contato|destinatario|empfaenger|empfanger)$/;

/** snake_case with accents folded: `Dirección` → `direccion`, `customerEmail` → `customer_email`; CJK kept */
export function snake(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** The entity a column's name suggests, if any. A bare `name` or a role (`owner`) is weak: it could be a product's name or an id. */
export function entityFromColumnName(column: string): { entity: EntityType; strong: boolean } | null {
  const n = snake(column);
  for (const [entity, re] of RULES) if (re.test(n)) return { entity, strong: !WEAK_NAMES.test(n) };
  return null;
}
