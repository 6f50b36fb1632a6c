// The script's basics: the token, the calls to the guarded routes, the confirmation dialog.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const PAGE_BASICS = String.raw`
  var TOKEN_KEY = 'nest-es-console-token';
  var API = document.body.dataset.api;
  var DEAD_LETTERS = document.body.dataset.deadLetters;

  function byId(id) {
    return document.getElementById(id);
  }

  /** An element with attributes and children (strings become text). */
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === 'className') node.className = attributes[name];
      else if (name.indexOf('data-') === 0) node.setAttribute(name, attributes[name]);
      else node[name] = attributes[name];
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function show(node, visible) {
    node.classList.toggle('hidden', !visible);
  }

  function status(text, isError) {
    var line = byId('status');
    line.textContent = text || '';
    line.className = isError ? 'error' : '';
  }

  function token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  /** Calls a JSON route with the token; a refused token sends the operator back to the sign-in form. */
  async function call(method, url, body) {
    var headers = { Authorization: 'Bearer ' + token(), Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    var response = await fetch(url, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    var data = null;
    try {
      data = await response.json();
    } catch (ignored) {
      data = null;
    }
    if (response.status === 401 || response.status === 403) {
      signOut('The token was refused (' + response.status + '): ' + ((data && data.message) || 'not an operator'));
      throw new Error('refused');
    }
    if (!response.ok) throw new Error((data && data.message) || 'HTTP ' + response.status);
    return data;
  }

  /** The confirmation dialog; resolves to the input's value (or true) when confirmed, null when not. */
  function confirmAction(text, field) {
    var dialog = byId('confirm');
    byId('confirm-text').textContent = text;
    show(byId('confirm-field'), Boolean(field));
    byId('confirm-label').textContent = field ? field.label : '';
    byId('confirm-input').value = field && field.value !== undefined ? String(field.value) : '';
    dialog.returnValue = '';
    dialog.showModal();
    return new Promise(function (resolve) {
      dialog.addEventListener('close', function () {
        if (dialog.returnValue !== 'ok') resolve(null);
        else resolve(field ? byId('confirm-input').value : true);
      }, { once: true });
    });
  }

  function duration(ms) {
    if (ms < 1000) return ms + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(1) + ' s';
    if (ms < 3600000) return Math.round(ms / 60000) + ' min';
    return (ms / 3600000).toFixed(1) + ' h';
  }
`;
