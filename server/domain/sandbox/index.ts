// The sandbox: the one place test mode is decided, for a test key's creates and for a
// platform's test-mode messages.
export { applyWooCommerceDelivery, commandsFor, platformCommandsFor, platformMessageMode } from './sandbox.js';
export { sampleEvent } from './sample-events.js';
