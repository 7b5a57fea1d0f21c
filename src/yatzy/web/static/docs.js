// Starts Swagger UI on the /docs page (a file of its own: the CSP allows no inline script).
// The OpenAPI document's URL comes from the page (it knows the app's path prefix).
"use strict";
window.SwaggerUIBundle({
  url: document.body.dataset.openapi,
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
