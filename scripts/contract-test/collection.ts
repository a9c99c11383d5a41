// What Portman generates, made runnable against this service: one flat run in the order the
// document's links need (creates before the reads and updates that use their ids, then the cancel
// flow, then the negative variations),
// signed webhooks signed, and the checks every answer owes whatever the operation.
import type { OpenAPIV3 } from 'openapi-types';
import { documentLinks, documentOperations, isCancel, requestBodySchema, type DocumentOperation } from './portman-config.js';

interface PostmanScript {
  listen: 'test' | 'prerequest';
  script: { type?: string; exec: string[] };
}

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  event?: PostmanScript[];
  request?: {
    method: string;
    url: { path?: string[]; variable?: Array<{ key: string; value?: string }> };
    auth?: unknown;
  };
}

export interface PostmanCollection {
  info: unknown;
  item: PostmanItem[];
  variable?: Array<{ key: string; value: string; type?: string }>;
}

export interface SigningSecrets {
  platform: string;
  easyPost: string;
  wooCommerce: string;
}

export interface RunFixtures {
  apiKey: string;
  /** The store the WooCommerce webhook path names. */
  storeId: string;
  secrets: SigningSecrets;
}

export interface ContractTestCollection extends PostmanCollection {
  operationsCovered: number;
  linksFollowed: number;
  positiveRequests: number;
  negativeRequests: number;
  /** Fuzzed variations that are no negative data (the request unchanged, or a field of another oneOf member), not sent. */
  variationsNotApplicable: number;
}

/** Postman sandbox code that adds the signature header each signed webhook's security scheme names. */
const SIGNERS: Record<string, string> = {
  webhookSignature: [
    'const t = Math.floor(Date.now() / 1000);',
    'const body = pm.variables.replaceIn(pm.request.body.raw);',
    "const v1 = CryptoJS.HmacSHA256(t + '.' + body, pm.collectionVariables.get('platformSecret')).toString(CryptoJS.enc.Hex);",
    "pm.request.headers.upsert({ key: 'X-Webhook-Signature', value: 't=' + t + ',v1=' + v1 });",
  ].join('\n'),
  easyPostSignature: [
    'const body = pm.variables.replaceIn(pm.request.body.raw);',
    "const hex = CryptoJS.HmacSHA256(body, pm.collectionVariables.get('easyPostSecret')).toString(CryptoJS.enc.Hex);",
    "pm.request.headers.upsert({ key: 'X-Hmac-Signature', value: 'hmac-sha256-hex=' + hex });",
  ].join('\n'),
  wooCommerceSignature: [
    'const body = pm.variables.replaceIn(pm.request.body.raw);',
    "const signature = CryptoJS.HmacSHA256(body, pm.collectionVariables.get('wooCommerceSecret')).toString(CryptoJS.enc.Base64);",
    "pm.request.headers.upsert({ key: 'X-WC-Webhook-Signature', value: signature });",
  ].join('\n'),
};

/** Checks owed by every answer, whatever the operation and whatever was sent. */
function everyAnswerChecks(operation: DocumentOperation): string {
  const label = `[${operation.method}]::${operation.path}`;
  return [
    `pm.test(${JSON.stringify(`${label} - Answers below 500`)}, function () {`,
    '  pm.expect(pm.response.code).to.be.below(500);',
    '});',
    `pm.test(${JSON.stringify(`${label} - Status is one the document lists`)}, function () {`,
    `  pm.expect(${JSON.stringify(operation.statuses)}).to.include(pm.response.code);`,
    '});',
    'if (pm.response.code >= 400) {',
    `  pm.test(${JSON.stringify(`${label} - Error body has error_code, error and errors`)}, function () {`,
    '    const body = pm.response.json();',
    "    pm.expect(body.error_code).to.be.a('string');",
    "    pm.expect(body.error).to.be.a('string');",
    "    pm.expect(body.errors).to.be.an('array');",
    '    if (pm.response.code === 400 && body.error_code === "invalid_request") pm.expect(body.errors.length).to.be.above(0);',
    '  });',
    '}',
  ].join('\n');
}

type Part = 'main' | 'flow' | 'variation';

function leaves(items: PostmanItem[], part: Part = 'main'): Array<{ item: PostmanItem; part: Part }> {
  return items.flatMap((item) => {
    if (!item.item) return [{ item, part }];
    const inner: Part = item.name === 'Variation Tests' ? 'variation' : item.name === 'Integration Tests' ? 'flow' : part;
    return leaves(item.item, inner);
  });
}

/** Whether the operation's JSON body is one of several shapes (oneOf or anyOf at its root). */
function hasMembers(document: OpenAPIV3.Document, operation: DocumentOperation): boolean {
  const schema = requestBodySchema(document, operation);
  return schema?.oneOf !== undefined || schema?.anyOf !== undefined;
}

type SentRequest = PostmanItem['request'] & { body?: { raw?: string }; header?: unknown };

function bodyOf(item: PostmanItem): unknown {
  const raw = (item.request as SentRequest | undefined)?.body?.raw;
  try {
    return typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    // a body with Postman variables outside strings stays as written
    return raw;
  }
}

/** The request as sent, minus formatting: Portman re-indents the JSON bodies it fuzzes. */
function requestShape(item: PostmanItem): string {
  const request = item.request as SentRequest | undefined;
  return JSON.stringify([request?.method, request?.url, request?.header, request?.auth, bodyOf(item)]);
}

function operationOf(item: PostmanItem, operations: DocumentOperation[]): DocumentOperation {
  const segments = item.request?.url.path ?? [];
  const found = operations.find((operation) => {
    if (operation.method !== item.request?.method) return false;
    const template = operation.path.split('/').slice(1);
    return template.length === segments.length && template.every((part, index) => (part.startsWith('{') ? segments[index]!.startsWith(':') : part === segments[index]));
  });
  if (!found) throw new Error(`Portman generated ${item.request?.method} /${segments.join('/')}, which the document does not have`);
  return found;
}

/** The order of the main run: each link's source before its target, the document's order otherwise. */
function statefulOrder(operations: DocumentOperation[]): string[] {
  const links = documentLinks(operations);
  const ordered: string[] = [];
  const visit = (id: string) => {
    if (ordered.includes(id)) return;
    for (const link of links) if (link.to === id && link.from !== id) visit(link.from);
    ordered.push(id);
  };
  for (const operation of operations) visit(operation.id);
  // A delete ends what the operations after it in the document would read (rotate, deliveries).
  const isDelete = (id: string) => operations.find((operation) => operation.id === id)?.method === 'DELETE';
  return [...ordered.filter((id) => !isDelete(id)), ...ordered.filter(isDelete)];
}

export function contractTestCollection(generated: PostmanCollection, document: OpenAPIV3.Document, fixtures: RunFixtures): ContractTestCollection {
  const operations = documentOperations(document);
  const order = statefulOrder(operations);
  const generatedLeaves = leaves(generated.item).map(({ item, part }) => ({ item, part, operation: operationOf(item, operations) }));
  // A fuzzing of a field the example does not carry leaves the request as it was: the valid
  // request again, not negative data.
  const mainShapes = new Set(generatedLeaves.filter((entry) => entry.part === 'main').map((entry) => requestShape(entry.item)));
  // Nor is a fuzzing of a field of another oneOf member (a refund's amount added to an order
  // message), which the receiving member passes over as an unknown field, as the document allows.
  const mainBodies = new Map(generatedLeaves.filter((entry) => entry.part === 'main').map((entry) => [entry.operation.id, bodyOf(entry.item)]));
  const otherMember = (entry: (typeof generatedLeaves)[number]) => {
    if (!hasMembers(document, entry.operation)) return false;
    const marker = entry.item.name.lastIndexOf('[invalid][');
    const fuzzed = marker < 0 ? undefined : entry.item.name.slice(marker).split(' ').pop()!.split(/[.[]/)[0];
    const base = mainBodies.get(entry.operation.id);
    return fuzzed !== undefined && base !== null && typeof base === 'object' && !(fuzzed in base);
  };
  const unchanged = generatedLeaves.filter((entry) => entry.part === 'variation' && (mainShapes.has(requestShape(entry.item)) || otherMember(entry)));
  // The cancels succeed in their own flow; in the main run a claim holds what they would cancel.
  const all = generatedLeaves.filter((entry) => !unchanged.includes(entry) && !(entry.part === 'main' && isCancel(entry.operation)));

  for (const { item, part, operation } of all) {
    const scheme = Object.keys(operation.operation.security?.[0] ?? {})[0] ?? '';
    const signer = SIGNERS[scheme];
    if (signer !== undefined) {
      item.request!.auth = { type: 'noauth' };
      if (!item.name.includes('[unauthenticated]')) item.event = [...(item.event ?? []), { listen: 'prerequest', script: { type: 'text/javascript', exec: [signer] } }];
    }
    if (scheme === 'wooCommerceSignature' && !item.name.includes('[unknown]')) {
      for (const variable of item.request!.url.variable ?? []) if (variable.key === 'merchant_id') variable.value = fixtures.storeId;
    }
    if (part === 'main' && !item.event?.some((event) => event.listen === 'test')) throw new Error(`${item.name}: Portman attached no contract test`);
    item.event = [...(item.event ?? []), { listen: 'test', script: { type: 'text/javascript', exec: [everyAnswerChecks(operation)] } }];
  }

  const positive = [
    ...all.filter((entry) => entry.part === 'main').sort((a, b) => order.indexOf(a.operation.id) - order.indexOf(b.operation.id)),
    ...all.filter((entry) => entry.part === 'flow'),
  ];
  const negative = all.filter((entry) => entry.part === 'variation');
  const run = [...positive, ...negative];

  const sent = JSON.stringify(positive.map((entry) => entry.item));
  const linksFollowed = documentLinks(operations).filter((link) => link.values.every((value) => sent.includes(`{{${value.variable}}}`))).length;

  return {
    info: generated.info,
    item: run.map((entry) => entry.item),
    variable: [
      ...(generated.variable ?? []),
      { key: 'apiKey', value: fixtures.apiKey, type: 'string' },
      { key: 'platformSecret', value: fixtures.secrets.platform, type: 'string' },
      { key: 'easyPostSecret', value: fixtures.secrets.easyPost, type: 'string' },
      { key: 'wooCommerceSecret', value: fixtures.secrets.wooCommerce, type: 'string' },
    ],
    operationsCovered: new Set(positive.map((entry) => entry.operation.id)).size,
    linksFollowed,
    positiveRequests: positive.length,
    negativeRequests: negative.length,
    variationsNotApplicable: unchanged.length,
  };
}
