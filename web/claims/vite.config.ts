// The shoppers' claim page's build (scripts/build-web.mjs runs it; `npx vite build web/claims` too).
import { appBuild } from '../shared/vite-app';

export default appBuild('/claims/');
