// What the hostile-input tests share: the error a call ends with.

export async function failure(call: () => PromiseLike<unknown>): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the call succeeded');
}
