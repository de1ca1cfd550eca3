// Check digits make generated ISSNs and ORCID iDs valid, so users' own validators accept them.

/** ISSN `NNNN-NNNC` from a 7-digit number (mod 11 check digit, `X` for 10). */
export function issnFromNumber(n: number): string {
  const digits = String(n % 10_000_000).padStart(7, '0');
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += digitAt(digits, i) * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  return `${digits.slice(0, 4)}-${digits.slice(4)}${check === 10 ? 'X' : String(check)}`;
}

/** ORCID iD `0000-000N-NNNN-NNNC` from a number (ISO 7064 mod 11-2 check digit). */
export function orcidFromNumber(n: number): string {
  const base = String(20_000_000 + (n % 10_000_000)).padStart(15, '0');
  let total = 0;
  for (let i = 0; i < base.length; i++) total = (total + digitAt(base, i)) * 2;
  const check = (12 - (total % 11)) % 11;
  const full = `${base}${check === 10 ? 'X' : String(check)}`;
  return [full.slice(0, 4), full.slice(4, 8), full.slice(8, 12), full.slice(12)].join('-');
}

function digitAt(text: string, index: number): number {
  return text.charCodeAt(index) - 48; // '0'
}

/** Quartile label for a score: the mock's own fixed thresholds (documented in the README). */
export function quartileOf(score: number): string {
  if (score >= 70) return 'Q1';
  if (score >= 45) return 'Q2';
  if (score >= 25) return 'Q3';
  return 'Q4';
}
