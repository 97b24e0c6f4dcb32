// The player's pure modules, loaded as they are written (ES modules under
// templates/script/, which the build bundles into rowmotion.js): what the
// node tests exercise without a browser.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyBatch, model } from '../../templates/script/model.js';
import { search } from '../../templates/script/search.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/// What the page's window.Rowmotion gives the model tests (players aside).
export function loadModel() {
  return { applyBatch, model, search };
}
