// The canvas picture's two chores, shared by the lesson (lesson.js) and the Real model view
// (model.js): fitting the canvas's pixels to its CSS size on this screen, and the clock of a
// step's animation (t from 0 to 1, or 1 at once for a learner who asks for reduced motion).
// What is painted at a given t is draw.js's and the layouts'.

/**
 * Size `canvas` to width × height CSS pixels at the screen's pixel ratio; `size` holds what it
 * has ({width, height, ratio}: the layout's size and its device pixels per layout pixel) and is
 * updated. `zoom` below 1 draws a layout of width / zoom × height / zoom into the same room (the
 * presentation's small screens). Returns whether anything changed (repaint then).
 * @param {HTMLCanvasElement} canvas
 * @param {{width: number, height: number, ratio: number}} size
 * @param {number} width
 * @param {number} height
 * @param {number} [zoom]
 */
export function fitCanvas(canvas, size, width, height, zoom = 1) {
  const screen = window.devicePixelRatio || 1;
  const ratio = screen * zoom;
  const layoutW = width / zoom;
  const layoutH = height / zoom;
  if (layoutW === size.width && layoutH === size.height && ratio === size.ratio) return false;
  Object.assign(size, { width: layoutW, height: layoutH, ratio });
  canvas.width = Math.round(width * screen);
  canvas.height = Math.round(height * screen);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  return true;
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/**
 * A step's animation clock: run() takes `t` from 0 to 1 over `ms`, calling paint() each frame
 * (or sets t = 1 and paints once under reduced motion); cancel() stops it where it is.
 * @param {number} ms
 * @param {() => void} paint reads motion.t
 */
export function createMotion(ms, paint) {
  let raf = 0;
  const motion = {
    t: 1,
    run() {
      cancelAnimationFrame(raf);
      if (reducedMotion()) {
        motion.t = 1;
        paint();
        return;
      }
      const start = performance.now();
      const frame = (now) => {
        motion.t = Math.min(1, (now - start) / ms);
        paint();
        if (motion.t < 1) raf = requestAnimationFrame(frame);
      };
      motion.t = 0;
      raf = requestAnimationFrame(frame);
    },
    cancel: () => cancelAnimationFrame(raf),
  };
  return motion;
}
