// Sign-in with the admin token, sign-out, and the tabs.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const SIGN_IN = String.raw`
  // Sign-in and tabs.

  function signIn(event) {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, byId('token').value);
    byId('token').value = '';
    opened();
  }

  function signOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    stopRefresh();
    show(byId('panels'), false);
    show(byId('tabs'), false);
    show(byId('sign-out'), false);
    show(byId('sign-in'), true);
    status(message || '', Boolean(message));
  }

  function opened() {
    show(byId('sign-in'), false);
    show(byId('panels'), true);
    show(byId('tabs'), true);
    show(byId('sign-out'), true);
    status('');
    select('subscribers');
  }

  function select(panel) {
    Array.prototype.forEach.call(document.querySelectorAll('#tabs button'), function (button) {
      button.classList.toggle('active', button.dataset.panel === panel);
    });
    Array.prototype.forEach.call(document.querySelectorAll('.panel'), function (section) {
      show(section, section.id === 'panel-' + panel);
    });
    stopRefresh();
    if (panel === 'subscribers') followSubscribers();
    if (panel === 'projections') startRefresh(refreshProjections);
    if (panel === 'dead-letters') listDeadLetters(false).catch(failed);
    if (panel === 'streams') loadAggregateTypes().catch(failed);
  }

  function failed(error) {
    if (error && error.message !== 'refused') status(error.message, true);
  }

  byId('sign-in').addEventListener('submit', signIn);
  byId('sign-out').addEventListener('click', function () { signOut(''); });
  Array.prototype.forEach.call(document.querySelectorAll('#tabs button'), function (button) {
    button.addEventListener('click', function () { select(button.dataset.panel); });
  });
`;
