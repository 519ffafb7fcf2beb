export { startGateway, type RunningGateway, type GatewayOverrides } from './service.js';
export { parseEnv, type GatewayEnv } from './env.js';
