import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, type Response } from 'express';
import { DomainError } from '@mm/domain';
import { openApiDocument } from '@mm/openapi';

/** Swagger UI's prebuilt browser files (swagger-ui-dist), served as they are published. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css'],
  ['swagger-ui-bundle.js', 'text/javascript'],
  ['favicon-32x32.png', 'image/png'],
]);

// No "Try it out": every request must be HMAC-signed with a secret that has no business in a browser.
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true, supportedSubmitMethods: [],
    defaultModelsExpandDepth: 0, docExpansion: 'list', presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mobile-money collection API v1 reference</title>
<link rel="stylesheet" href="/api/v1/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/v1/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="reference"></div>
<script src="/api/v1/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/v1/docs/assets/reference.js"></script>
</body>
</html>
`;

/**
 * Swagger UI sets inline style attributes (hence 'unsafe-inline' for styles only); scripts come from
 * this origin alone, and the page reads nothing but the document.
 */
function referenceHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
}

/** GET /api/v1/openapi.json and its readable rendering at /api/v1/docs: public, outside authentication. */
export function apiReferenceRouter(): Router {
  const router = Router();
  const document = JSON.stringify(openApiDocument);

  router.get('/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    referenceHeaders(res);
    res.set('Cache-Control', 'public, max-age=300').type('text/html').send(PAGE);
  });
  router.get('/docs/assets/reference.js', (_req, res) => {
    referenceHeaders(res);
    res.set('Cache-Control', 'public, max-age=300').type('text/javascript').send(INITIALIZER);
  });
  // A Map, not an object: "constructor" or "__proto__" must not find something to send.
  router.get('/docs/assets/:file', (req, res, next) => {
    const type = ASSETS.get(req.params.file);
    if (!type) throw new DomainError('NOT_FOUND', 'no such file');
    referenceHeaders(res);
    // root: the store path of pnpm holds a ".pnpm" segment, which send refuses as a dotfile in a full path.
    res.sendFile(req.params.file, { root: SWAGGER_UI_DIR, headers: { 'Content-Type': type }, maxAge: '1d' }, (err) => {
      if (!err || res.headersSent) return;
      next((err as NodeJS.ErrnoException).code === 'ENOENT' ? new DomainError('NOT_FOUND', 'no such file') : err);
    });
  });
  return router;
}
