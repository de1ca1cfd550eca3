import { describe, expect, it } from 'vitest';
import { type BeforeRequestHook, MetricError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

describe('withOptions({ hooks }) merges hooks, the parent’s first (as ky’s extend)', () => {
  it('runs the parent’s and then the child’s, kind by kind; the parent keeps its own only', async () => {
    const api = createMockApi();
    const order: string[] = [];
    const mark =
      (name: string): BeforeRequestHook =>
      ({ request }) => {
        order.push(name);
        request.headers.set(`x-${name}`, '1');
      };
    const parent = testClient(
      { hooks: { beforeRequest: [mark('sign')], afterResponse: [() => void order.push('parent-after')] } },
      api,
    );
    const child = parent.withOptions({
      hooks: { beforeRequest: [mark('trace')], afterResponse: [() => void order.push('child-after')] },
    });
    await child.subjects.list();
    expect(order).toEqual(['sign', 'trace', 'parent-after', 'child-after']);
    order.length = 0;
    await parent.subjects.list();
    expect(order).toEqual(['sign', 'parent-after']);
    // A grandchild without hooks of its own keeps both.
    order.length = 0;
    await child.withOptions({ timeout: 5_000 }).subjects.list();
    expect(order).toEqual(['sign', 'trace', 'parent-after', 'child-after']);
  });

  it('refuses hooks that are not hooks, as the constructor does', () => {
    const parent = testClient({ hooks: { beforeRequest: [() => undefined] } }, createMockApi());
    expect(() => parent.withOptions({ hooks: { beforeRequest: 'nope' } as never })).toThrow(MetricError);
  });
});
