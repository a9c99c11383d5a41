// The Portman settings, derived from the OpenAPI document so that a new route, response or link is
// tested without touching this file.
import type {
  AssignVariablesConfig,
  IntegrationTestConfig,
  OverwriteRequestConfig,
  PortmanConfig,
  VariationTestConfig,
} from '@apideck/portman/dist/types/PortmanConfig.js';
import type { OpenAPIV3 } from 'openapi-types';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/policy.js';

export interface DocumentOperation {
  id: string;
  method: string;
  path: string;
  operation: OpenAPIV3.OperationObject;
  /** The response codes the document lists. */
  statuses: number[];
  /** Whether a store API key authenticates it (the others are signed webhooks). */
  keyed: boolean;
}

export function documentOperations(document: OpenAPIV3.Document): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const operation = item?.[method];
      if (!operation?.operationId) continue;
      operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        operation,
        statuses: Object.keys(operation.responses).map(Number),
        keyed: (operation.security ?? []).some((requirement) => 'tokenHeader' in requirement),
      });
    }
  }
  return operations;
}

export interface DocumentLink {
  from: string;
  name: string;
  to: string;
  /** Where the value goes in the target request, and the response-body property it comes from. */
  values: Array<{ in: 'path' | 'query' | 'body'; key: string; responseProperty: string; variable: string }>;
}

/** The response links of the document, each value read from the response body ($response.body#/x). */
export function documentLinks(operations: DocumentOperation[]): DocumentLink[] {
  const links: DocumentLink[] = [];
  for (const source of operations) {
    for (const response of Object.values(source.operation.responses) as OpenAPIV3.ResponseObject[]) {
      for (const [name, link] of Object.entries(response.links ?? {}) as Array<[string, OpenAPIV3.LinkObject]>) {
        if (!link.operationId) continue;
        const values: DocumentLink['values'] = [];
        const target = operations.find((operation) => operation.id === link.operationId);
        if (!target) throw new Error(`link ${source.id}.${name} names no operation ${link.operationId}`);
        const read = (expression: unknown, place: 'path' | 'query' | 'body', key: string) => {
          const match = typeof expression === 'string' ? /^\$response\.body#\/(.+)$/.exec(expression) : null;
          if (!match) throw new Error(`link ${source.id}.${name}: ${String(expression)} is not a response-body value`);
          const segments = match[1]!.split('/');
          // Portman reads array elements in bracket form: [0].id.
          const responseProperty = segments.map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`)).join('').replace(/^\./, '');
          values.push({ in: place, key, responseProperty, variable: `${source.id}.${segments.join('.')}` });
        };
        for (const [key, expression] of Object.entries(link.parameters ?? {})) {
          const parameter = (target.operation.parameters ?? []).find((candidate) => 'name' in candidate && candidate.name === key) as OpenAPIV3.ParameterObject | undefined;
          if (parameter?.in !== 'path' && parameter?.in !== 'query') throw new Error(`link ${source.id}.${name}: ${key} is no path or query parameter of ${target.id}`);
          read(expression, parameter.in, key);
        }
        if (link.requestBody && typeof link.requestBody === 'object') {
          for (const [key, expression] of Object.entries(link.requestBody as Record<string, unknown>)) read(expression, 'body', key);
        }
        links.push({ from: source.id, name, to: link.operationId, values });
      }
    }
  }
  return links;
}

/** The schema of an operation's JSON request body, its component resolved. */
export function requestBodySchema(document: OpenAPIV3.Document, operation: DocumentOperation): OpenAPIV3.SchemaObject | undefined {
  const body = operation.operation.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  let schema = body?.content['application/json']?.schema;
  if (schema && '$ref' in schema) schema = document.components?.schemas?.[schema.$ref.split('/').pop()!];
  return schema && !('$ref' in schema) ? schema : undefined;
}

/** The example of an operation's JSON request body, when it has one. */
function requestExample(document: OpenAPIV3.Document, operation: DocumentOperation): Record<string, unknown> | null {
  const example: unknown = requestBodySchema(document, operation)?.example;
  return example !== null && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : null;
}

const everyFuzzing = {
  requiredFields: { enabled: true },
  minimumNumberFields: { enabled: true },
  maximumNumberFields: { enabled: true },
  minLengthFields: { enabled: true },
  maxLengthFields: { enabled: true },
};

/** A variation of each operation that lists the response, built by the given change. */
function variation(
  operations: DocumentOperation[],
  status: number,
  name: string,
  change: Omit<VariationTestConfig['variations'][number], 'name' | 'tests'>,
  only: (operation: DocumentOperation) => boolean = () => true,
): VariationTestConfig | null {
  const targets = operations.filter((operation) => operation.statuses.includes(status) && only(operation)).map((operation) => operation.id);
  if (targets.length === 0) return null;
  return {
    openApiOperationIds: targets,
    openApiResponse: String(status),
    variations: [{ name, ...change, tests: { contractTests: responseChecks(true) } }],
  };
}

function responseChecks(statusCode: boolean) {
  return [
    { openApiOperation: '*::/*', ...(statusCode ? { statusCode: { enabled: true } } : { statusSuccess: { enabled: true } }) },
    { openApiOperation: '*::/*', contentType: { enabled: true } },
    { openApiOperation: '*::/*', jsonBody: { enabled: true } },
    { openApiOperation: '*::/*', schemaValidation: { enabled: true } },
    { openApiOperation: '*::/*', headersPresent: { enabled: true } },
  ];
}

export function portmanConfig(document: OpenAPIV3.Document): PortmanConfig {
  const operations = documentOperations(document);
  const links = documentLinks(operations);

  const assignVariables: AssignVariablesConfig[] = [];
  const overwrites: OverwriteRequestConfig[] = [];
  for (const link of links) {
    assignVariables.push({
      openApiOperationId: link.from,
      collectionVariables: link.values.map((value) => ({ responseBodyProp: value.responseProperty, name: value.variable })),
    });
    const pathValues = link.values.filter((value) => value.in === 'path');
    const queryValues = link.values.filter((value) => value.in === 'query');
    const bodyValues = link.values.filter((value) => value.in === 'body');
    overwrites.push({
      openApiOperationId: link.to,
      ...(pathValues.length > 0 && { overwriteRequestPathVariables: pathValues.map((value) => ({ key: value.key, value: `{{${value.variable}}}` })) }),
      ...(queryValues.length > 0 && { overwriteRequestQueryParams: queryValues.map((value) => ({ key: value.key, value: `{{${value.variable}}}` })) }),
      ...(bodyValues.length > 0 && { overwriteRequestBody: bodyValues.map((value) => ({ key: value.key, value: `{{${value.variable}}}` })) }),
    });
  }

  // A new Idempotency-Key for every request sent: a key shared by a request and its fuzzed
  // variations would rightly answer them 422 (the same key, another request).
  for (const operation of operations) {
    const takesKey = (operation.operation.parameters ?? []).some((parameter) => 'name' in parameter && parameter.name === IDEMPOTENCY_KEY_HEADER);
    if (takesKey) overwrites.push({ openApiOperationId: operation.id, overwriteRequestHeaders: [{ key: IDEMPOTENCY_KEY_HEADER, value: '{{$guid}}' }] });
  }

  // Two operations that create what their links read back by the same field (Route's v1 order
  // create beside the v2 one) would collide on their shared example: each gets its own value.
  const readBack = new Map<string, string[]>();
  for (const link of links) {
    const source = operations.find((operation) => operation.id === link.from)!;
    for (const value of link.values) {
      const example = requestExample(document, source);
      if (example === null || !(value.responseProperty in example)) continue;
      const sources = readBack.get(value.responseProperty) ?? [];
      if (!sources.includes(source.id)) readBack.set(value.responseProperty, [...sources, source.id]);
    }
  }
  for (const [property, sources] of readBack) {
    if (sources.length < 2) continue;
    for (const source of sources) overwrites.push({ openApiOperationId: source, overwriteRequestBody: [{ key: property, value: `${source}.${property}` }] });
  }

  const variationTests = [
    // Negative data: each required field removed, each bound and length limit crossed.
    variation(operations, 400, 'invalid', {
      fuzzing: [{ requestBody: [everyFuzzing], requestQueryParams: [everyFuzzing], requestHeaders: [everyFuzzing] }],
    }),
    // No credentials at all; the signed webhooks are sent unsigned in the same way.
    variation(operations, 401, 'unauthenticated', { overwrites: [{ overwriteRequestSecurity: { remove: true } }] }),
    // A path naming nothing this store has.
    variation(
      operations,
      404,
      'unknown',
      {
        overwrites: [
          {
            overwriteRequestPathVariables: ['source_order_id', 'tracking_number', 'id', 'merchant_id', 'platform_slug'].map((key) => ({
              key,
              value: 'contract-test-unknown',
              insert: false,
            })),
          },
        ],
      },
      (operation) => operation.path.includes('{'),
    ),
  ].filter((entry): entry is VariationTestConfig => entry !== null);

  return {
    version: 1.0,
    tests: { contractTests: responseChecks(false), variationTests, integrationTests: [cancelFlow(document, operations, links)] },
    assignVariables,
    overwrites,
    globals: { stripResponseExamples: true },
  };
}

export const CANCEL_FLOW = 'cancel flow';
/** The operations an open claim refuses: the cancels, and the erasure of an order's personal data. */
export const isCancel = (operation: DocumentOperation): boolean => operation.path.endsWith('/cancel') || operation.path.endsWith('/redact');

/**
 * The cancels on resources of their own. In the main run a claim is open on the order and its
 * shipment, and the service rightly refuses to cancel either (409); a cancel must still be seen to
 * succeed. The flow creates what each cancel's links read (an order, then a shipment of it) under
 * new values, then cancels the shipment, then the order.
 */
function cancelFlow(document: OpenAPIV3.Document, operations: DocumentOperation[], links: DocumentLink[]): IntegrationTestConfig {
  const cancels = operations.filter(isCancel).reverse();
  const creators: string[] = [];
  const addCreator = (id: string) => {
    for (const link of links) if (link.to === id && !creators.includes(link.from) && !isCancel(operations.find((operation) => operation.id === link.from)!)) addCreator(link.from);
    if (!creators.includes(id)) creators.push(id);
  };
  for (const cancel of cancels) for (const link of links) if (link.to === cancel.id) addCreator(link.from);
  const flowVariable = (variable: string) => `${CANCEL_FLOW}.${variable}`;
  const flowLinks = links.filter((link) => creators.includes(link.from) && (creators.includes(link.to) || cancels.some((cancel) => cancel.id === link.to)));

  const step = (operation: DocumentOperation): IntegrationTestConfig['operations'][number] => {
    const incoming = flowLinks.filter((link) => link.to === operation.id);
    const outgoing = flowLinks.filter((link) => link.from === operation.id);
    const example = requestExample(document, operation) ?? {};
    // The values the cancels will read: new ones, letters and digits so that any field takes them.
    const fresh = [...new Set(outgoing.flatMap((link) => link.values.map((value) => value.responseProperty)))].filter(
      (property) => property in example && !incoming.some((link) => link.values.some((value) => value.in === 'body' && value.key === property)),
    );
    const pathValues = incoming.flatMap((link) => link.values.filter((value) => value.in === 'path'));
    const bodyValues = incoming.flatMap((link) => link.values.filter((value) => value.in === 'body'));
    return {
      openApiOperationId: operation.id,
      variations: [
        {
          name: `${operation.id} (${CANCEL_FLOW})`,
          overwrites: [
            {
              overwriteRequestBody: [
                ...fresh.map((property) => ({ key: property, value: `cancelflow${property.replace(/[^a-z]/gi, '')}` })),
                ...bodyValues.map((value) => ({ key: value.key, value: `{{${flowVariable(value.variable)}}}` })),
              ],
              overwriteRequestPathVariables: pathValues.map((value) => ({ key: value.key, value: `{{${flowVariable(value.variable)}}}` })),
            },
          ],
          assignVariables: outgoing.length === 0 ? [] : [
            {
              collectionVariables: outgoing.flatMap((link) => link.values.map((value) => ({ responseBodyProp: value.responseProperty, name: flowVariable(value.variable) }))),
            },
          ],
          tests: { contractTests: responseChecks(false) },
        },
      ],
    };
  };
  return {
    name: CANCEL_FLOW,
    operations: [...creators, ...cancels.map((cancel) => cancel.id)].map((id) => step(operations.find((operation) => operation.id === id)!)),
  };
}
