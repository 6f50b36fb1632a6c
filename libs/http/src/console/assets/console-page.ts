/** Where the page finds its files and the routes it calls. */
export interface ConsolePageLinks {
  /** The page's own path (global prefix included): its script, style and JSON routes are below it. */
  base: string;
  /** The dead-letter routes' path. */
  deadLetters: string;
}

/**
 * The console's HTML: markup only, no data and no inline script or style (the CSP forbids both).
 * The links are the only thing that varies, and they are escaped.
 */
export function consolePage(links: ConsolePageLinks): string {
  const base = escapeAttribute(links.base);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Operator console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/console.css">
<script src="${base}/console.js" defer></script>
</head>
<body data-api="${base}/api" data-dead-letters="${escapeAttribute(links.deadLetters)}">
<header>
  <h1>Operator console</h1>
  <nav id="tabs" class="hidden">
    <button type="button" data-panel="subscribers" class="active">Subscribers</button>
    <button type="button" data-panel="dead-letters">Dead letters</button>
    <button type="button" data-panel="streams">Streams</button>
    <button type="button" data-panel="event-types">Event types</button>
    <button type="button" data-panel="projections">Projections</button>
  </nav>
  <button type="button" id="sign-out" class="hidden">Forget token</button>
</header>
<p id="status" role="status"></p>
<form id="sign-in">
  <label for="token">Admin bearer token</label>
  <input id="token" type="password" autocomplete="off" required>
  <button type="submit" id="use-token">Open the console</button>
  <p class="hint">The token stays in this tab (sessionStorage) and goes with every call as <code>Authorization: Bearer</code>.</p>
</form>
<main id="panels" class="hidden">
  <section id="panel-subscribers" class="panel">
    <p id="subscribers-summary"></p>
    <table id="subscribers"><thead><tr><th>Subscriber</th><th>Checkpoint</th><th>Position</th><th>Behind</th><th>Runs on</th><th>Held</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="panel-dead-letters" class="panel hidden">
    <form id="dead-letter-filter">
      <label for="dead-letter-status">Status</label>
      <select id="dead-letter-status"><option value="pending">pending</option><option value="retried">retried</option><option value="discarded">discarded</option><option value="">any</option></select>
      <button type="submit">List</button>
    </form>
    <table id="dead-letters"><thead><tr><th>Created</th><th>Kind</th><th>Message</th><th>Aggregate</th><th>Reason</th><th>Attempts</th><th>Status</th><th></th></tr></thead><tbody></tbody></table>
    <button type="button" id="dead-letters-more" class="hidden">More</button>
    <pre id="dead-letter-detail" class="hidden"></pre>
  </section>
  <section id="panel-streams" class="panel hidden">
    <form id="stream-find">
      <label for="stream-type">Aggregate type</label>
      <select id="stream-type"></select>
      <label for="stream-id">Id</label>
      <input id="stream-id" required>
      <button type="submit">Find</button>
    </form>
    <div id="stream-state" class="hidden"><h2 id="stream-title"></h2><p id="stream-view"></p><pre id="stream-state-json"></pre></div>
    <table id="stream-events" class="hidden"><thead><tr><th>Seq</th><th>Position</th><th>Stored at</th><th>As stored</th><th>As read by this code</th></tr></thead><tbody></tbody></table>
    <button type="button" id="stream-more" class="hidden">Next page</button>
  </section>
  <section id="panel-event-types" class="panel hidden">
    <p>Counts every stored event: it reads the whole store.</p>
    <button type="button" id="event-types-count">Count</button>
    <table id="event-types" class="hidden"><thead><tr><th>Type</th><th>Version</th><th>Events</th><th>Positions</th><th>Read as</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="panel-projections" class="panel hidden">
    <p>Blue/green rebuilds: a copy of a projector's declared tables is built beside the live ones and switched in once it has caught up.</p>
    <table id="projections"><thead><tr><th>Projector</th><th>Tables</th><th>Rebuild</th><th>Last outcome</th><th></th></tr></thead><tbody></tbody></table>
  </section>
</main>
<dialog id="confirm">
  <form method="dialog">
    <p id="confirm-text"></p>
    <p id="confirm-field" class="hidden"><label for="confirm-input" id="confirm-label"></label> <input id="confirm-input"></p>
    <menu><button value="ok" id="confirm-ok">Confirm</button> <button value="cancel" id="confirm-cancel">Cancel</button></menu>
  </form>
</dialog>
</body>
</html>
`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
