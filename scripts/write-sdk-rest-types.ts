// npm run sdk:rest-types: regenerates sdk/src/rest-types.ts from openapi.json.
import { writeFileSync } from 'node:fs';
import { renderRestTypes, restTypesPath } from './sdk-rest-types.js';

writeFileSync(restTypesPath, await renderRestTypes());
console.log(`wrote ${restTypesPath}`);
