/** Subject areas the generator draws from, in id order. Journals' and authors' `field_id` is a subject id. */
export const subjectNames: readonly string[] = [
  'Agricultural Sciences',
  'Arts & Humanities',
  'Astronomy & Astrophysics',
  'Biochemistry',
  'Chemistry',
  'Computer Science',
  'Earth Sciences',
  'Economics',
  'Education',
  'Electrical Engineering',
  'Environmental Science',
  'Genetics',
  'History',
  'Immunology',
  'Linguistics',
  'Materials Science',
  'Mathematics',
  'Mechanical Engineering',
  'Medicine',
  'Neuroscience',
  'Nursing',
  'Philosophy',
  'Physics',
  'Psychology',
  'Public Health',
  'Sociology',
  'Statistics',
  'Urban Studies',
  'Veterinary Science',
  'Zoology',
];

/** `'Arts & Humanities'` → `'arts-humanities'`. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
