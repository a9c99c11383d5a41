// HMAC-SHA256 on Web Crypto, shared by the two signature schemes (webhooks.ts: the platform
// messages the service receives; events.ts: the events it sends). Web Crypto's verify compares in
// constant time, so no signature is compared byte by byte here. Base64 is done by hand: atob and
// btoa are not in every runtime's types, and Buffer is Node's.

/** The part of Web Crypto's SubtleCrypto used here, declared so the types need neither the DOM lib nor @types/node. */
interface HmacCrypto {
  importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: false, usages: Array<'sign' | 'verify'>): Promise<HmacKey>;
  sign(algorithm: 'HMAC', key: HmacKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: 'HMAC', key: HmacKey, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}
/** A CryptoKey, opaque here. */
export type HmacKey = { readonly type: string };

export const encoder = new TextEncoder();

function subtle(): HmacCrypto {
  const webCrypto = (globalThis as unknown as { crypto?: { subtle?: HmacCrypto } }).crypto;
  if (webCrypto?.subtle === undefined) throw new Error('This runtime has no Web Crypto (crypto.subtle), which webhook signatures need.');
  return webCrypto.subtle;
}

/** An HMAC-SHA256 key: a string's UTF-8 bytes, or the bytes themselves. */
export function hmacKey(secret: string | Uint8Array, usage: 'sign' | 'verify'): Promise<HmacKey> {
  return subtle().importKey('raw', typeof secret === 'string' ? encoder.encode(secret) : secret, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

export async function hmacSign(key: HmacKey, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign('HMAC', key, data));
}

/** Whether `mac` is the HMAC of `data`, in constant time (Web Crypto's verify). */
export function hmacVerify(key: HmacKey, mac: Uint8Array, data: Uint8Array): Promise<boolean> {
  return subtle().verify('HMAC', key, mac, data);
}

/** The UTF-8 bytes of each part, one after the other. */
export function concatBytes(...parts: Array<string | Uint8Array>): Uint8Array {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const out = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64, with padding. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[index], bytes[index + 1], bytes[index + 2]];
    const triple = (a << 16) | (b << 8) | c;
    const left = bytes.length - index;
    out += ALPHABET[(triple >> 18) & 63];
    out += ALPHABET[(triple >> 12) & 63];
    out += left > 1 ? ALPHABET[(triple >> 6) & 63] : '=';
    out += left > 2 ? ALPHABET[triple & 63] : '=';
  }
  return out;
}

/** Standard base64 (padding optional) to bytes; undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/.test(text)) return undefined;
  const digits = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((digits.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let offset = 0;
  for (const digit of digits) {
    buffer = ((buffer << 6) | ALPHABET.indexOf(digit)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[offset] = (buffer >> bits) & 0xff;
      offset += 1;
    }
  }
  // The bits of the last digit past the last byte are zero in base64 as written by encoders.
  return (buffer & ((1 << bits) - 1)) === 0 ? out : undefined;
}
