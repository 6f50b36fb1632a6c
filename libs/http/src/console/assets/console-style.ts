// The console page's style sheet, served as /console.css (the CSP allows no inline style).
export const CONSOLE_STYLE = `
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; color: #1d232a; background: #f4f6f8; }
body { margin: 0 auto; padding: 0 16px 24px; max-width: 1200px; }
header { display: flex; align-items: center; gap: 16px; border-bottom: 1px solid #cfd6dd; }
h1 { font-size: 18px; margin: 12px 0; }
h2 { font-size: 15px; margin: 12px 0 4px; }
nav { display: flex; gap: 4px; flex: 1; }
button { white-space: nowrap; font: inherit; padding: 3px 10px; border: 1px solid #9aa6b2; border-radius: 4px; background: #fff; cursor: pointer; }
button:hover { background: #e8eef4; }
nav button.active { background: #1d4e89; border-color: #1d4e89; color: #fff; }
input, select { font: inherit; padding: 3px 6px; border: 1px solid #9aa6b2; border-radius: 4px; }
form { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 12px 0; }
#sign-in { flex-direction: column; align-items: flex-start; max-width: 420px; }
#sign-in input { width: 100%; }
.hint { color: #5b6570; font-size: 12px; margin: 0; }
.hidden { display: none !important; }
#status { min-height: 1.4em; margin: 8px 0; }
#status.error, .held-error { color: #a4161a; }
table { width: 100%; border-collapse: collapse; background: #fff; margin: 8px 0; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid #e3e8ed; }
th { background: #e8eef4; font-weight: 600; }
#subscribers td:first-child, #projections td:first-child { white-space: nowrap; }
.kind { margin-left: 6px; font-size: 11px; color: #5b6570; }
tr.has-held td { background: #fff4e5; }
tr.held-event td { background: #fffaf2; font-size: 13px; }
.held-error { font-family: ui-monospace, monospace; font-size: 12px; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.35 ui-monospace, monospace; }
#dead-letter-detail, #stream-state-json { background: #fff; border: 1px solid #e3e8ed; padding: 8px; }
tr.upcast td { background: #eef6ff; }
tr.rebuilding td { background: #eef6ff; }
.actions { white-space: nowrap; }
.actions button { margin-right: 4px; }
dialog { border: 1px solid #9aa6b2; border-radius: 6px; max-width: 480px; }
dialog form { flex-direction: column; align-items: stretch; }
dialog menu { display: flex; gap: 8px; justify-content: flex-end; padding: 0; margin: 0; }
`;
