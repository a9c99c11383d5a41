// Which webhook endpoint URLs the service may send to (README, "Events and outbound webhooks";
// docs/events.md, "What an endpoint URL may be"): https to public addresses only, unless the
// operator allows private networks for development and tests. endpointUrlProblems is the check when
// an endpoint is made or changed; isPublicAddress is the check at every delivery, after DNS
// (server/outbound/send-event.ts), so that a name cannot be pointed elsewhere later.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** ::a.b.c.d, the deprecated IPv4-compatible form: ipaddr.js calls it unicast, but some stacks route it to IPv4. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** Whether an address may be connected to: ipaddr.js range 'unicast' only (IPv4-mapped IPv6 converted to IPv4 first). Refuses private, loopback, link-local (169.254.169.254 metadata), unique-local (fd00::/8, incl. fd00:ec2::254), carrier-grade NAT, unspecified, broadcast, multicast, reserved, 6to4/teredo and the like. Unparseable strings: false. */
export function isPublicAddress(address: string): boolean {
  // Only the forms a socket takes: ipaddr.js also reads shorthands such as 127.1 or 0x7f000001.
  if (isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return false;
  return parsed.range() === 'unicast';
}

/** The host as a socket wants it: URL keeps IPv6 literals in brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The creation-time check of an endpoint URL: problems as plain messages (empty when fine). https only unless allowPrivateNetworks (then http too); no user:password@; a host that is a literal IP must be public unless allowPrivateNetworks; 'localhost' and names ending .localhost refused unless allowPrivateNetworks. No DNS here (delivery time checks again after resolving). */
export function endpointUrlProblems(url: string, options: { allowPrivateNetworks: boolean }): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return ['is not a valid absolute URL'];
  }
  const problems: string[] = [];
  // The URL parser forgives a missing authority (https:///x, https:x and https:\\x all become
  // host x); an endpoint URL must name its host itself.
  if (!/^[a-z][a-z\d+.-]*:\/\/[^/?#\\]+/i.test(url.trim()) || parsed.hostname === '') problems.push('must name a host, as in https://example.com/webhooks');
  if (options.allowPrivateNetworks) {
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') problems.push('must use https or http');
  } else if (parsed.protocol !== 'https:') {
    problems.push('must use https');
  }
  if (parsed.username !== '' || parsed.password !== '') problems.push('must not contain a user name or password');
  if (!options.allowPrivateNetworks) {
    const hostname = bareHostname(parsed);
    if (isIP(hostname) !== 0 && !isPublicAddress(hostname)) {
      problems.push('names an IP address that is not public (private, loopback, link-local or reserved)');
    }
    if (isLocalhostName(hostname)) problems.push('names localhost');
  }
  return problems;
}
