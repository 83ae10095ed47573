/**
 * Characters PostgreSQL cannot store in text or jsonb: NUL, and UTF-16 surrogates that are not
 * part of a pair (JSON's `\ud800` escape). They are refused at the edge, naming the field.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isStorableText = (s: string) => !UNSTORABLE.test(s);
