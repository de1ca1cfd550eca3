// Bodies and arguments the resource tests share: a paper as `GET /papers/{doi}` answers it, a journal's
// score history, and ids an endpoint refuses before sending.

export const paper = {
  id: 9,
  title: 'On tests',
  authors: 'A. Author, B. Author',
  doi: '10.1000/abc',
  year: 2021,
  citations: 12,
  abstract: 'We test.',
};

export const score = {
  current: 87,
  quartile: 'Q1',
  history: [
    { date: '2024-02-29', score: 87 },
    { date: '2023-12-31', score: 80 },
  ],
};

export const badIds: Array<[string, unknown]> = [
  ['1.5', 1.5],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ["'7'", '7'],
  ['2**53', 2 ** 53],
  ['null', null],
  ['undefined', undefined],
];
