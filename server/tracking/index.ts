// Chooses the tracking provider from the environment (docs/tracking.md): EasyPost when
// EASYPOST_API_KEY is set, otherwise the sandbox, which needs no account and no network.
import type { TrackingProvider } from '../domain/shipments/index.js';
import { createEasyPostProvider } from './easypost.js';
import { createSandboxProvider } from './sandbox.js';

export interface TrackingEnvironment {
  EASYPOST_API_KEY?: string;
  /** API root including the version; defaults to https://api.easypost.com/v2/. */
  EASYPOST_BASE_URL?: string;
}

export function createTrackingProvider(env: TrackingEnvironment): TrackingProvider {
  // An empty variable means "not set", as in config.ts.
  const apiKey = env.EASYPOST_API_KEY?.trim();
  if (!apiKey) return createSandboxProvider();
  const baseUrl = env.EASYPOST_BASE_URL?.trim();
  return createEasyPostProvider(baseUrl ? { apiKey, baseUrl } : { apiKey });
}
