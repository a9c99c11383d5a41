// The webhook sender (server/outbound/send-event.ts): the address check, where the connection
// goes, and how each kind of answer (or its absence) is reported. Every server here is a local one
// on 127.0.0.1, and every postEvent gets a stub resolver: host names such as receiver.test cannot
// resolve through system DNS, so reaching a server proves the stub's checked address was used.
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { endpointUrlProblems, isPublicAddress } from '../server/domain/events/index.js';
import { postEvent, type AddressResolver } from '../server/outbound/send-event.js';

// A self-signed certificate for receiver.test (EC P-256, valid until 2126), trusted by nothing.
const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgBPVwgtagcia0s1zo
gYl7P7w3IqXu3t8FC7mHSkkB4MyhRANCAATsK1VxyAQUD7UyUDSM9ZIytMVcbqKj
m0ML6nt7li+T3Iz9Z9ntHCfgUiPipQHXOnDiMPrhgwnYDu3dcHKh1ZUP
-----END PRIVATE KEY-----
`;
const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBoTCCAUegAwIBAgIUetzFELf8qodxjAKPoxbci7escIgwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNcmVjZWl2ZXIudGVzdDAgFw0yNjExMjMyMDMwNDZaGA8yMTI2
MTAzMDIwMzA0NlowGDEWMBQGA1UEAwwNcmVjZWl2ZXIudGVzdDBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABOwrVXHIBBQPtTJQNIz1kjK0xVxuoqObQwvqe3uWL5Pc
jP1n2e0cJ+BSI+KlAdc6cOIw+uGDCdgO7d1wcqHVlQ+jbTBrMB0GA1UdDgQWBBSu
5uW6dzrxBgqt238rW2wMnrUK4DAfBgNVHSMEGDAWgBSu5uW6dzrxBgqt238rW2wM
nrUK4DAPBgNVHRMBAf8EBTADAQH/MBgGA1UdEQQRMA+CDXJlY2VpdmVyLnRlc3Qw
CgYIKoZIzj0EAwIDSAAwRQIgYicaU0maoDVcPIWSZktdqvjCuh0Qg20rqoWQa77T
1/0CIQD+2FEwkv9MFpn4DJW8tp2yZUQnSHXtnytgZ7eN5fQJKg==
-----END CERTIFICATE-----
`;

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface LocalServer {
  port: number;
  /** TCP connections accepted: a refused delivery must leave this at 0. */
  connections: () => number;
  requests: ReceivedRequest[];
}

const openServers: Array<http.Server | https.Server> = [];

afterEach(async () => {
  const servers = openServers.splice(0);
  await Promise.all(
    servers.map(async (server) => {
      server.closeAllConnections();
      server.close();
      if (server.listening) await once(server, 'close');
    }),
  );
});

async function listen(server: http.Server | https.Server): Promise<LocalServer> {
  openServers.push(server);
  let connections = 0;
  const requests: ReceivedRequest[] = [];
  server.on('connection', () => (connections += 1));
  server.prependListener('request', (req: http.IncomingMessage) => {
    const received: ReceivedRequest = { method: req.method, url: req.url, headers: req.headers, body: Buffer.alloc(0) };
    requests.push(received);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => (received.body = Buffer.concat(chunks)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, connections: () => connections, requests };
}

/** A loopback HTTP server; `answer` runs once the request body has arrived. */
function startServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<LocalServer> {
  return listen(http.createServer((req, res) => req.on('end', () => answer(req, res)).resume()));
}

/** A stub resolver answering `answers[n]` on its nth call (the last one again after that), recording each name asked. */
function stubResolver(...answers: string[][]): AddressResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[Math.min(calls.length, answers.length) - 1] ?? [];
    return addresses.map((address) => ({ address, family: net.isIPv6(address) ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { calls });
}

const EVENT_BODY = JSON.stringify({ id: 'evt_1', type: 'order.created', data: { note: 'Crème brûlée 🍮', cents: 1234 } });
const EVENT_HEADERS = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,c2lnbmF0dXJl' };

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2002:7f00:1::', // 6to4 around 127.0.0.1
    '::7f00:1', // 127.0.0.1 in the deprecated IPv4-compatible form (::/96)
    '127.1', // a shorthand sockets do not take
    'nonsense',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('postEvent refuses before connecting', () => {
  it.each([[['127.0.0.1']], [['10.0.0.7']], [['169.254.169.254']], [['93.184.216.34', '127.0.0.1']], [['127.0.0.1', '93.184.216.34']]])(
    'when the name resolves to %j',
    async (addresses) => {
      const server = await startServer((_req, res) => res.end('ok'));
      const resolve = stubResolver(addresses);
      const result = await postEvent(`https://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: false, resolve });
      expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'refused_address', responseBody: null });
      expect(resolve.calls).toEqual(['receiver.test']);
      expect(server.connections()).toBe(0);
    },
  );

  it.each(['https://127.0.0.1:PORT/hook', 'https://[::ffff:127.0.0.1]:PORT/hook'])('when the host is the literal address in %s', async (pattern) => {
    const server = await startServer((_req, res) => res.end('ok'));
    const resolve = stubResolver(['93.184.216.34']);
    const result = await postEvent(pattern.replace('PORT', String(server.port)), EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: false, resolve });
    expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'refused_address', responseBody: null });
    expect(resolve.calls).toEqual([]);
    expect(server.connections()).toBe(0);
  });

  it.each(['http://receiver.test:PORT/hook', 'http://127.0.0.1:PORT/hook', 'https://user:pw@receiver.test:PORT/hook', 'ftp://receiver.test:PORT/', 'not a url'])(
    'with invalid_url for %s',
    async (pattern) => {
      const server = await startServer((_req, res) => res.end('ok'));
      const resolve = stubResolver(['127.0.0.1']);
      const result = await postEvent(pattern.replace('PORT', String(server.port)), EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: false, resolve });
      expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'invalid_url', responseBody: null });
      expect(resolve.calls).toEqual([]);
      expect(server.connections()).toBe(0);
    },
  );

  it('still refuses credentials in the URL when private networks are allowed', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const resolve = stubResolver(['127.0.0.1']);
    const result = await postEvent(`http://user:pw@receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve });
    expect(result.error).toBe('invalid_url');
    expect(server.connections()).toBe(0);
  });
});

describe('postEvent delivers to the checked address (private networks allowed)', () => {
  // net's lookup hook is called in two forms, one address or all of them, depending on autoSelectFamily.
  it.each([true, false])('POSTs the body and headers as given (autoSelectFamily %s)', async (autoSelectFamily) => {
    const server = await startServer((_req, res) => res.end('ok'));
    const resolve = stubResolver(['127.0.0.1']);
    const previous = net.getDefaultAutoSelectFamily();
    net.setDefaultAutoSelectFamily(autoSelectFamily);
    const result = await postEvent(`http://receiver.test:${server.port}/hook?store=1`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve }).finally(() =>
      net.setDefaultAutoSelectFamily(previous),
    );

    expect(result).toEqual({ succeeded: true, statusCode: 200, durationMs: expect.any(Number), error: null, responseBody: 'ok' });
    expect(Number.isInteger(result.durationMs)).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(resolve.calls).toEqual(['receiver.test']);
    expect(server.requests).toHaveLength(1);
    const [received] = server.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/hook?store=1');
    expect(received?.body.equals(Buffer.from(EVENT_BODY, 'utf8'))).toBe(true);
    expect(received?.headers).toMatchObject({
      ...EVENT_HEADERS,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(EVENT_BODY)),
      host: `receiver.test:${server.port}`,
    });
    expect(received?.headers['user-agent']).toMatch(/\S/);
  });

  it('sends its own Content-Type and User-Agent, whatever the caller passes', async () => {
    const server = await startServer((_req, res) => res.end());
    const headers = { ...EVENT_HEADERS, 'Content-Type': 'text/plain', 'user-agent': 'spoof' };
    const result = await postEvent(`http://receiver.test:${server.port}/`, headers, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result.succeeded).toBe(true);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests[0]?.headers['user-agent']).not.toBe('spoof');
  });

  it('resolves once per delivery, so a second answer (rebinding) is never used', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const resolve = stubResolver(['127.0.0.1'], ['10.255.255.1']);
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve });
    expect(result).toMatchObject({ succeeded: true, statusCode: 200, error: null });
    expect(resolve.calls).toEqual(['receiver.test']);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 500 with what the server wrote', async () => {
    const server = await startServer((_req, res) => {
      res.statusCode = 500;
      res.end('database is down');
    });
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result).toEqual({ succeeded: false, statusCode: 500, durationMs: expect.any(Number), error: 'http_status', responseBody: 'database is down' });
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await startServer((_req, res) => res.end('ok'));
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/stolen` });
      res.end('moved');
    });
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result).toMatchObject({ succeeded: false, statusCode: 302, error: 'redirect_not_followed', responseBody: 'moved' });
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.connections()).toBe(0);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('gives up after timeoutMs when no answer comes', async () => {
    const server = await startServer(() => {});
    const started = performance.now();
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, {
      allowPrivateNetworks: true,
      resolve: stubResolver(['127.0.0.1']),
      timeoutMs: 300,
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'timeout', responseBody: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(server.requests).toHaveLength(1);
  });

  it('counts the end of the answer in the timeout: a 200 whose body stalls is a timeout', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const started = performance.now();
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, {
      allowPrivateNetworks: true,
      resolve: stubResolver(['127.0.0.1']),
      timeoutMs: 300,
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ succeeded: false, statusCode: 200, error: 'timeout', responseBody: 'partial' });
  });

  it('counts name resolution in the timeout', async () => {
    const hanging: AddressResolver = () => new Promise(() => {});
    const started = performance.now();
    const result = await postEvent('http://receiver.test:1/hook', EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: hanging, timeoutMs: 200 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'timeout' });
  });

  it('keeps only maxResponseBytes of a large answer', async () => {
    const server = await startServer((_req, res) => res.end('a'.repeat(1024 * 1024)));
    const resolve = stubResolver(['127.0.0.1']);
    const kept = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve });
    expect(kept).toMatchObject({ succeeded: true, statusCode: 200, error: null });
    expect(kept.responseBody).toBe('a'.repeat(4096));

    const fewer = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve, maxResponseBytes: 10 });
    expect(fewer.responseBody).toBe('a'.repeat(10));
  });

  it('stops reading at the limit: the server cannot finish sending 64 MB', async () => {
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'b');
    let written = 0;
    let reportClose = () => {};
    const closedOnServer = new Promise<void>((resolveClosed) => (reportClose = resolveClosed));
    const server = await startServer((_req, res) => {
      let closed = false;
      res.on('close', () => {
        closed = true;
        reportClose();
      });
      // Writes as fast as the client reads (backpressure), until all is sent or the client hangs up.
      const writeMore = () => {
        while (!closed && written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', writeMore);
        }
        if (!closed) res.end();
      };
      res.writeHead(200);
      writeMore();
    });
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result).toMatchObject({ succeeded: true, statusCode: 200, error: null });
    expect(result.responseBody).toBe('b'.repeat(4096));
    await closedOnServer;
    expect(written).toBeLessThan(total);
  });

  it('decodes the kept bytes as UTF-8, replacing invalid sequences and NUL', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.from([0x68, 0x69, 0xff, 0x00, 0xc3, 0xa9])));
    const result = await postEvent(`http://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result.responseBody).toBe('hi\uFFFD\uFFFDé');
  });

  it('reports a name that does not resolve as dns_failed', async () => {
    const notFound: AddressResolver = async (hostname) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    const server = await startServer((_req, res) => res.end('ok'));
    for (const allowPrivateNetworks of [false, true]) {
      const result = await postEvent(`https://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks, resolve: notFound });
      expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'dns_failed', responseBody: null });
    }
    const empty = await postEvent(`https://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver([]) });
    expect(empty.error).toBe('dns_failed');
    expect(server.connections()).toBe(0);
  });

  it('reports a refused connection as connection_failed', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const result = await postEvent(`http://receiver.test:${port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'connection_failed', responseBody: null });
  });

  it('uses the host name for TLS (SNI) and does not accept an untrusted certificate', async () => {
    const serverNames: string[] = [];
    const server = await listen(
      https.createServer(
        {
          key: SELF_SIGNED_KEY,
          cert: SELF_SIGNED_CERT,
          SNICallback: (serverName, done) => {
            serverNames.push(serverName);
            done(null, undefined);
          },
        },
        (_req, res) => res.end('ok'),
      ),
    );
    const result = await postEvent(`https://receiver.test:${server.port}/hook`, EVENT_HEADERS, EVENT_BODY, { allowPrivateNetworks: true, resolve: stubResolver(['127.0.0.1']) });
    expect(result).toMatchObject({ succeeded: false, statusCode: null, error: 'connection_failed', responseBody: null });
    expect(serverNames).toEqual(['receiver.test']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('endpointUrlProblems', () => {
  const strict = { allowPrivateNetworks: false };
  const relaxed = { allowPrivateNetworks: true };

  it('accepts a public https URL', () => {
    expect(endpointUrlProblems('https://shop.example.com/hook', strict)).toEqual([]);
    expect(endpointUrlProblems('https://93.184.216.34/hook', strict)).toEqual([]);
  });

  it.each(['http://shop.example.com', 'https://10.0.0.1/', 'https://[::1]/', 'https://localhost/', 'https://api.localhost./', 'https://169.254.169.254/latest'])(
    'refuses %s unless private networks are allowed',
    (url) => {
      expect(endpointUrlProblems(url, strict)).not.toEqual([]);
      expect(endpointUrlProblems(url, relaxed)).toEqual([]);
    },
  );

  it.each(['ftp://x', 'https://user:pw@shop.example.com', 'https://user@shop.example.com/', 'not a url', ''])('refuses %s in any case', (url) => {
    const problems = endpointUrlProblems(url, strict);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/\S/);
    expect(endpointUrlProblems(url, relaxed).length).toBeGreaterThan(0);
  });
});
