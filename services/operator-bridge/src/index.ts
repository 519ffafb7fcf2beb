export { startOperatorBridge, type RunningBridge, type BridgeOverrides } from './service.js';
export { parseEnv, type BridgeEnv } from './env.js';
