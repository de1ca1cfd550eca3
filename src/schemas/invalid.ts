/** What a generated parser returns for a value it does not accept. */
export const INVALID: unique symbol = Symbol('invalid');
