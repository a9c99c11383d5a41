// npm run sdk:codegen: regenerates sdk/src/routes.ts (from the contract) and sdk/src/types.ts (from openapi.json).
import { writeFileSync } from 'node:fs';
import { renderRoutes, renderTypes, routesPath, typesPath } from './sdk-codegen.js';

writeFileSync(routesPath, renderRoutes());
console.log(`wrote ${routesPath}`);
writeFileSync(typesPath, renderTypes());
console.log(`wrote ${typesPath}`);
