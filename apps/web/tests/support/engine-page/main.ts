// A bare page for the engine worker's browser test: it hands the test the
// page API (computerMove) as a page of the app would call it.

import { computerMove } from '../../../src/lib/engine/computer-move.js';

(window as unknown as { computerMove: typeof computerMove }).computerMove = computerMove;
document.body.dataset.ready = '';
