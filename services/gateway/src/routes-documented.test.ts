import { openApiDocument } from '@mm/openapi';
import { createLogger, createMetricsRegistry } from '@mm/observability';
import type { Express } from 'express';
import { createGatewayApp, type GatewayDeps } from './app.js';

interface RouterLayer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
}

/** Every "METHOD /path" the app routes, mount paths included (Express 5's router keeps each layer's rawPath). */
function routesOf(stack: RouterLayer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      return Object.keys(layer.route.methods)
        .filter((m) => m !== '_all')
        .map((m) => `${m.toUpperCase()} ${prefix}${layer.route!.path}`);
    }
    const mount = layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : '';
    return layer.handle.stack ? routesOf(layer.handle.stack, prefix + mount) : [];
  });
}

// Building the app wires its routes and touches none of its dependencies.
const app: Express = createGatewayApp({
  logger: createLogger('test', 'silent'),
  metrics: createMetricsRegistry('gateway'),
  rateLimit: (_req: unknown, _res: unknown, next: () => void) => next(),
  publicBaseUrl: 'http://pay.example.test',
} as unknown as GatewayDeps);

describe('the gateway serves under /api/v1 exactly what the OpenAPI document describes', () => {
  const served = routesOf((app as unknown as { router: { stack: RouterLayer[] } }).router.stack)
    .filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'))
    // The readable reference page and its files: a rendering of the document, not an operation in it.
    .filter((r) => !r.split(' ')[1]!.startsWith('/api/v1/docs'))
    .map((r) => r.replace('/api/v1', '').replace(/:(\w+)/g, '{$1}'))
    .sort();
  const documented = Object.entries(openApiDocument.paths ?? {})
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();

  it('every route is documented and every documented operation is routed', () => {
    expect(served.length).toBeGreaterThan(5);
    expect(served).toEqual(documented);
  });
});

describe('outside /api/v1 the public app serves the payment page, the payment-link page and its QR codes, and liveness, nothing else', () => {
  it('no /ready or /metrics: they are on the internal port', () => {
    const served = routesOf((app as unknown as { router: { stack: RouterLayer[] } }).router.stack).filter(
      (r) => !r.split(' ')[1]!.startsWith('/api/v1/'),
    );
    expect(served.sort()).toEqual([
      'GET /health',
      'GET /l/:slug',
      'GET /l/:slug/qr.png',
      'GET /l/:slug/qr.svg',
      'GET /pay/:id',
      'GET /pay/:id/status',
      'POST /l/:slug',
    ]);
  });
});
