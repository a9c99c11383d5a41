// The merchant console's build (scripts/build-web.mjs runs it; `npx vite build web/console` too).
import { appBuild } from '../shared/vite-app';

export default appBuild('/console/');
