// The projections panel: blue/green rebuilds, started, followed and switched back.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const PROJECTIONS_PANEL = String.raw`
  // Projections: refreshed every REFRESH_MS while the panel is open, like the subscribers.

  async function refreshProjections() {
    var projections = await call('GET', API + '/projections');
    var body = byId('projections').tBodies[0];
    body.replaceChildren.apply(body, projections.map(projectionRow));
  }

  function projectionRow(projection) {
    var rebuild = projection.rebuild;
    var actions = el('td', { className: 'actions' }, []);
    // One rebuild at a time per projector, and no switch back under it: the routes refuse both.
    if (projection.tables && !rebuild) {
      actions.appendChild(actionButton('rebuild-projection', 'Rebuild (blue/green)', function () { return rebuildProjection(projection); }));
      if (projection.previous) actions.appendChild(actionButton('switch-back', 'Switch back', function () { return switchBack(projection); }));
    }
    return el('tr', { 'data-projector': projection.name, className: rebuild ? 'rebuilding' : '' }, [
      el('td', {}, [projection.name]),
      el('td', {}, [projection.tables ? projection.tables.join(', ') : el('span', { className: 'hint' }, ['no tables declared: not rebuildable blue/green'])]),
      el('td', { className: 'rebuild-progress' }, [rebuild ? rebuildText(rebuild) : '—']),
      el('td', { className: 'last-outcome' }, [projection.last ? outcomeText(projection.last) : '—']),
      actions,
    ]);
  }

  function actionButton(className, label, action) {
    var button = el('button', { type: 'button', className: className, textContent: label });
    button.addEventListener('click', function () { action().catch(failed); });
    return button;
  }

  // The lag is what the copy still has to read before the live tables can be switched.
  function rebuildText(rebuild) {
    return rebuild.phase + ' · copy ' + rebuild.copy + ' · position ' + rebuild.position + ' / target ' + rebuild.target +
      ' · lag ' + Math.max(0, rebuild.head - rebuild.position) + ' · started ' + new Date(rebuild.startedAt).toLocaleTimeString();
  }

  function outcomeText(last) {
    var when = ' · ' + new Date(last.at).toLocaleString();
    return last.outcome === 'switched' ? 'switched at #' + last.position + when : 'failed: ' + last.error + when;
  }

  async function rebuildProjection(projection) {
    var text = 'Rebuild ' + projection.name + ' blue/green? A copy of ' + projection.tables.join(', ') + ' is built from the first event while the live tables keep serving, ' +
      'then switched in; the current tables are kept aside for Switch back.';
    if (!(await confirmAction(text))) return;
    var progress = await call('POST', API + '/projections/rebuild', { projector: projection.name });
    status('Blue/green rebuild of ' + progress.projector + ' started (copy ' + progress.copy + ').');
    await refreshProjections();
  }

  async function switchBack(projection) {
    if (!(await confirmAction('Switch ' + projection.name + ' back to its previous tables? The current ones are kept aside: switching back again undoes it.'))) return;
    var answer = await call('POST', API + '/projections/switch-back', { projector: projection.name });
    status(answer.projector + ' switched back; it goes on from position ' + answer.position + '.');
    await refreshProjections();
  }
`;
