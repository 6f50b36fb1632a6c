import helmet from 'helmet';

/**
 * helmet's headers on every answer of the app (the page, its static files, Swagger, the API): a
 * Content-Security-Policy, X-Frame-Options SAMEORIGIN, nosniff, Referrer-Policy no-referrer, and no
 * X-Powered-By. The policy is helmet's default, which the page (no inline script, its own files and
 * API only) and Swagger UI (its own scripts, inline styles) work under, less
 * `upgrade-insecure-requests`: the server speaks plain HTTP, and on an address other than localhost
 * the browser would turn the page's requests to https:// and fail them.
 */
export function securityHeaders(): ReturnType<typeof helmet> {
  return helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
}
