// A spy on node:crypto's timingSafeEqual as the code under test imports it
// (`import { timingSafeEqual } from 'node:crypto'`). An ES module namespace cannot be spied on
// (vi.spyOn refuses: it is not configurable), but Node keeps the named exports of a built-in module
// in step with its CommonJS object when asked to: the spy is set on that object and
// syncBuiltinESMExports() hands it to every importer, until restore() puts the original back.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { vi } from 'vitest';

const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');

export interface TimingSafeEqualCall {
  /** Byte lengths of the two buffers compared. */
  lengths: [number, number];
  result: boolean;
}

export interface TimingSafeEqualSpy {
  /** The calls since the spy was set (or last reset), in order. */
  calls(): TimingSafeEqualCall[];
  reset(): void;
  restore(): void;
}

export function spyOnTimingSafeEqual(): TimingSafeEqualSpy {
  const spy = vi.spyOn(crypto, 'timingSafeEqual');
  syncBuiltinESMExports();
  return {
    calls: () =>
      spy.mock.calls.map(([a, b], i) => ({
        lengths: [a.byteLength, b.byteLength],
        result: spy.mock.results[i]?.value as boolean,
      })),
    reset: () => spy.mockClear(),
    restore: () => {
      spy.mockRestore();
      syncBuiltinESMExports();
    },
  };
}
