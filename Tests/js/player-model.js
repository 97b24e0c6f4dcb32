// The player's model, loaded from templates/rowmotion.js outside a browser:
// the script runs with a stub window and document and leaves its API on
// window.Rowmotion (applyBatch is the pure model of one batch).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function loadModel() {
  const sandbox = { window: {}, document: { querySelectorAll: () => [] } };
  const source = fs.readFileSync(path.join(root, 'templates', 'rowmotion.js'), 'utf8');
  new Function('window', 'document', source)(sandbox.window, sandbox.document);
  return sandbox.window.Rowmotion;
}

module.exports = { root, loadModel };
