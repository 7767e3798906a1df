/**
 * Stand-ins for what a service is given (repositories, ports, metrics), for the unit specs
 * beside each feature's services: the methods a spec gives, recorded as jest mocks, and for
 * any other method one that throws naming it, so a service that starts calling something new
 * fails its spec instead of passing on an `undefined`.
 */
export type Fake<T> = T & {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? jest.Mock<R, A> & T[K] : T[K];
};

export function fake<T extends object>(given: { [K in keyof T]?: T[K] } = {}, name = 'fake'): Fake<T> {
  const methods: Record<PropertyKey, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    methods[key] = typeof value === 'function' ? jest.fn(value as (...args: unknown[]) => unknown) : value;
  }
  return new Proxy(methods, {
    get(target, prop) {
      if (prop in target) return target[prop];
      // Not a promise, not a Nest provider's hook: read by frameworks, never called by a service.
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      return () => {
        throw new Error(`${name}.${String(prop)} was called, and the spec gave no such method`);
      };
    },
  }) as Fake<T>;
}

/** A prom-client counter that only counts. */
export function fakeCounter(): { inc: jest.Mock<void, [number?]>; total: () => number } {
  let total = 0;
  const inc = jest.fn((n = 1) => {
    total += n;
  });
  return { inc, total: () => total };
}
