// The store's accent colour on the page: set on the document root as custom properties (through the
// CSSOM, which the CSP allows), with the text colour on it chosen for at least 4.5:1 contrast.
import { DEFAULT_ACCENT_COLOR } from '../../../contract/shopper/index.js';

const LIGHT_TEXT = '#ffffff';
const DARK_TEXT = '#111111';
const BLACK = '#000000';
/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG's relative luminance of #rrggbb. */
export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 0xff) + 0.7152 * channel((n >> 8) & 0xff) + 0.0722 * channel(n & 0xff);
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * White or near-black, whichever reads better on the colour. Near-black can fall just short on a
 * mid-tone (black never does: its worst case is 4.58:1), so then it is black.
 */
export function textOn(accent: string): string {
  const best = contrast(accent, LIGHT_TEXT) >= contrast(accent, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
  return contrast(accent, best) >= MIN_CONTRAST ? best : BLACK;
}

const isColour = (value: string | null | undefined): value is string => typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value);

export function applyAccent(color: string | null | undefined): void {
  const accent = isColour(color) ? color.toLowerCase() : DEFAULT_ACCENT_COLOR;
  const root = document.documentElement.style;
  root.setProperty('--accent', accent);
  root.setProperty('--on-accent', textOn(accent));
}
