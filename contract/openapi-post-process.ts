// What the OpenAPI document (contract/openapi.ts) needs after ts-rest has generated it: the schema
// rules of OpenAPI 3.0.3 that zod's output misses, and a named component for every titled schema.

export type SchemaObject = Record<string, unknown>;
const isSchemaObject = (value: unknown): value is SchemaObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every titled schema becomes a named component, wherever ts-rest left it inline (the members of a
 * oneOf, such as the three platform messages), so that generators name the type and Redoc renders
 * it. A oneOf with a discriminator gets its mapping from each member's constant.
 */
export function nameTitledSchemas(document: SchemaObject): void {
  const components = (document.components as SchemaObject).schemas as Record<string, SchemaObject>;
  const hoist = (node: unknown, isComponentRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => hoist(item, false));
    if (!isSchemaObject(node)) return node;
    for (const [key, value] of Object.entries(node)) {
      // Schemas sit under these keys; examples and the like are left alone.
      if (['properties', 'items', 'oneOf', 'anyOf', 'allOf', 'additionalProperties', 'schema', 'content', 'requestBody', 'responses', 'paths'].includes(key) || /^(application\/|[0-9]{3}$|\/)/.test(key) || key === 'get' || key === 'post' || key === 'patch') {
        node[key] = isSchemaObject(value) && key === 'properties'
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, hoist(property, false)]))
          : hoist(value, false);
      }
    }
    const title = node.title;
    if (isComponentRoot || typeof title !== 'string' || node.type !== 'object') return node;
    const existing = components[title];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(node)) return node;
    components[title] = node;
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const [name, schema] of Object.entries(components)) components[name] = hoist(schema, true) as SchemaObject;
  document.paths = hoist(document.paths, false);
  const addMappings = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(addMappings);
    if (!isSchemaObject(node)) return;
    const discriminator = node.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (discriminator && Array.isArray(node.oneOf)) {
      const mapping: Record<string, string> = {};
      for (const member of node.oneOf as Array<{ $ref?: string }>) {
        const target = member.$ref === undefined ? undefined : components[member.$ref.replace('#/components/schemas/', '')];
        const value = ((target?.properties as SchemaObject | undefined)?.[discriminator.propertyName] as { enum?: string[] } | undefined)?.enum?.[0];
        if (member.$ref !== undefined && value !== undefined) mapping[value] = member.$ref;
      }
      if (Object.keys(mapping).length === (node.oneOf as unknown[]).length) discriminator.mapping = mapping;
    }
    Object.values(node).forEach(addMappings);
  };
  addMappings(document);
}

/**
 * What OpenAPI 3.0.3 asks of a nullable schema: an enum lists null among its values (validators
 * check enum first, and would refuse the null that nullable allows), and a nullable reference
 * (zod's .nullable() on a named object: allOf with one $ref) says its type.
 */
export function nullableRules(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(nullableRules);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  if (schema.nullable === true && schema.type === undefined && Array.isArray(schema.allOf)) schema.type = 'object';
  Object.values(schema).forEach(nullableRules);
}

/**
 * zod's z.unknown() comes out as { nullable: true } with no type, which OpenAPI 3.0 does not allow:
 * any JSON value is the empty schema.
 */
export function anyValueSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(anyValueSchemas);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    const schema = value as Record<string, unknown> | null;
    if (schema !== null && typeof schema === 'object' && !Array.isArray(schema) && Object.keys(schema).length === 1 && schema.nullable === true) {
      record[key] = {};
    } else {
      anyValueSchemas(value);
    }
  }
}
