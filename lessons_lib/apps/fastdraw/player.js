// The page side of Play drawn by the browser (lessons_lib/apps/fastdraw/player.py): a canvas
// laid exactly over the app's ipympl figure, on which recorded frames (record.py's packed
// arrays) are drawn over the figure's background with Canvas 2D at the display's rate.
// The kernel computed every frame; this file only draws them and says which one it shows.

const OP_PATH = 1;
const OP_TEXT = 2;
const PROPS = 18;
const HEADER_BYTES = 32;
const CAPS = ["butt", "round", "square"];
const JOINS = ["miter", "round", "bevel"];
const REPORT_MS = 200;   // "shown" at most five times a second
// "hide": the overlay goes when the figure's canvas next gets a picture (the kernel sends
// "hide" just before drawing its own figure), so the kernel's picture replaces the page's
// frame at once, with neither a stale frame left over it nor a gap. Where no new picture
// comes (the figure did not change), it goes after this long.
const HIDE_AFTER_MS = 1000;

function asBytes(value) {
  if (!value) return new Uint8Array(0);
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(0);
}

async function inflate(value) {
  const packed = asBytes(value);
  if (!packed.length) return new Uint8Array(0);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function parse(bytes) {
  if (bytes.length < HEADER_BYTES) return null;
  const head = new DataView(bytes.buffer);
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (magic !== "LMA1") return null;
  const [frames, width, height, prims, segs, verts, dashes] =
    [4, 8, 12, 16, 20, 24, 28].map((at) => head.getUint32(at, true));
  let at = HEADER_BYTES;
  function take(Kind, count) {
    const size = count * Kind.BYTES_PER_ELEMENT;
    if (at + size > bytes.length) throw new Error("short animation");
    const view = new Kind(bytes.buffer, at, count);
    at += size + ((4 - (size % 4)) % 4);
    return view;
  }
  const offsets = take(Int32Array, (frames + 1) * 4);
  const props = take(Float32Array, prims * PROPS);
  const vertices = take(Float32Array, verts * 2);
  const dashLengths = take(Float32Array, dashes);
  const kinds = take(Uint8Array, prims);
  const codes = take(Uint8Array, segs);
  return { frames, width, height, offsets, props, vertices, dashLengths, kinds, codes };
}

function rgba(p, o) {
  const c = (v) => Math.round(Math.min(1, Math.max(0, v)) * 255);
  return `rgba(${c(p[o])},${c(p[o + 1])},${c(p[o + 2])},${Math.min(1, Math.max(0, p[o + 3]))})`;
}

function drawFrame(ctx, anim, k, background, strings, fonts) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, anim.width, anim.height);
  if (background) ctx.drawImage(background, 0, 0, anim.width, anim.height);
  const off = anim.offsets;
  const p = anim.props;
  const xy = anim.vertices;
  let s = off[k * 4 + 1];
  let v = off[k * 4 + 2];
  let d = off[k * 4 + 3];
  const end = off[(k + 1) * 4];
  let clip = null;                 // the clip rectangle in force (most share their axes')
  function clipTo(o) {
    const key = p[o + 2] < 0 ? "none" : `${p[o]},${p[o + 1]},${p[o + 2]},${p[o + 3]}`;
    if (key === clip) return;
    if (clip !== null) ctx.restore();
    ctx.save();
    clip = key;
    if (key !== "none") {
      ctx.beginPath();
      ctx.rect(p[o], p[o + 1], p[o + 2], p[o + 3]);
      ctx.clip();
    }
  }
  for (let i = off[k * 4]; i < end; i++) {
    const o = i * PROPS;
    if (anim.kinds[i] === OP_TEXT) {
      clipTo(o + 11);
      const family = fonts[p[o + 9]] || "sans-serif";
      ctx.save();
      ctx.font = `${p[o + 15] ? "italic " : ""}${Math.round(p[o + 10])} ${p[o + 4]}px "${family}", sans-serif`;
      ctx.fillStyle = rgba(p, o);
      ctx.textBaseline = "alphabetic";
      ctx.textAlign = "left";
      ctx.translate(p[o + 6], p[o + 7]);
      ctx.rotate((-p[o + 5] * Math.PI) / 180);
      ctx.fillText(strings[p[o + 8]] || "", 0, 0);
      ctx.restore();
      continue;
    }
    const nseg = p[o + 16];
    const ndash = p[o + 15];
    clipTo(o + 11);
    ctx.beginPath();
    for (let j = 0; j < nseg; j++) {
      const code = anim.codes[s++];
      if (code === 1) { ctx.moveTo(xy[2 * v], xy[2 * v + 1]); v += 1; }
      else if (code === 2) { ctx.lineTo(xy[2 * v], xy[2 * v + 1]); v += 1; }
      else if (code === 3) {
        ctx.quadraticCurveTo(xy[2 * v], xy[2 * v + 1], xy[2 * v + 2], xy[2 * v + 3]); v += 2;
      } else if (code === 4) {
        ctx.bezierCurveTo(xy[2 * v], xy[2 * v + 1], xy[2 * v + 2], xy[2 * v + 3],
                          xy[2 * v + 4], xy[2 * v + 5]);
        v += 3;
      } else if (code === 79) { ctx.closePath(); }
    }
    if (p[o + 3] > 0) {
      ctx.fillStyle = rgba(p, o);
      ctx.fill();
    }
    if (p[o + 7] > 0 && p[o + 8] > 0) {
      ctx.strokeStyle = rgba(p, o + 4);
      ctx.lineWidth = p[o + 8];
      ctx.lineCap = CAPS[p[o + 9]] || "butt";
      ctx.lineJoin = JOINS[p[o + 10]] || "miter";
      if (ndash > 1) {
        ctx.setLineDash(Array.from(anim.dashLengths.subarray(d + 1, d + ndash)));
        ctx.lineDashOffset = anim.dashLengths[d];
      } else {
        ctx.setLineDash([]);
      }
      ctx.stroke();
    }
    d += ndash;
  }
  if (clip !== null) ctx.restore();
}

function findFigure(el) {
  const root = el.isConnected ? el.closest(".lesson-app") : null;
  const figure = root ? root.querySelector(".jupyter-matplotlib-figure") : null;
  const holder = figure ? figure.querySelector(".jupyter-matplotlib-canvas-div") : null;
  const canvases = holder ? holder.querySelectorAll("canvas") : [];
  return canvases.length ? { holder, image: canvases[0], top: canvases[canvases.length - 1] } : null;
}

export default {
  render({ model, el }) {
    let found = null;
    let overlay = null;
    let ctx = null;
    let background = null;
    let slots = [];              // frame index -> { chunk, k } once its run has come
    let queue = Promise.resolve();
    let timer = null;
    let hideTimer = null;
    let hideAtPicture = false;   // "hide" came: at the figure's next picture
    const run = { playing: false, token: -1, from: 0, start: 0, interval: 40, substeps: 1,
                  shown: -1, reported: 0, painted: 0 };

    function send(type, frame) {
      const message = { type };
      if (frame !== undefined) { message.token = run.token; message.frame = frame; }
      model.send(message);
    }

    function place(anim) {
      if (overlay.width !== anim.width) overlay.width = anim.width;
      if (overlay.height !== anim.height) overlay.height = anim.height;
      const box = found.image;
      overlay.style.left = `${box.offsetLeft}px`;
      overlay.style.top = `${box.offsetTop}px`;
      overlay.style.width = `${box.clientWidth}px`;
      overlay.style.height = `${box.clientHeight}px`;
    }

    function show(k) {
      const slot = slots[k];
      if (!slot) return false;
      drawFrame(ctx, slot.chunk.anim, slot.k, background, slot.chunk.strings, slot.chunk.fonts);
      run.shown = k;
      run.painted += 1;
      overlay.dataset.frame = String(k);
      overlay.dataset.painted = String(run.painted);
      return true;
    }

    function tick(now) {
      if (!run.playing) return;
      const last = slots.length - 1;
      let k = run.from + Math.floor((now - run.start) / run.interval);
      if (k >= last) k = last;
      if (k !== run.shown && !show(k)) {
        // not come yet (the kernel records slower than Play): the newest one that has
        let j = k - 1;
        while (j > run.shown && !slots[j]) j--;
        if (j > run.shown) show(j);
        requestAnimationFrame(tick);
        return;
      }
      if (k === last) {
        run.playing = false;
        send("ended", k);
        return;
      }
      if (now - run.reported >= REPORT_MS) {
        run.reported = now;
        send("shown", run.shown);
      }
      requestAnimationFrame(tick);
    }

    async function handle(msg, buffers) {
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "begin") {
        run.playing = false;
        run.token = msg.token;
        slots = new Array(Math.max(0, msg.frames | 0)).fill(null);
        const png = asBytes(buffers && buffers[0]);
        background = png.length
          ? await createImageBitmap(new Blob([png], { type: "image/png" })) : null;
        return;
      }
      if (msg.token !== run.token) return;
      if (msg.type === "frames") {
        const anim = parse(await inflate(buffers && buffers[0]));
        if (!anim || msg.token !== run.token) return;
        const chunk = { anim, strings: msg.strings || [], fonts: msg.fonts || [] };
        for (let k = 0; k < anim.frames && msg.first + k < slots.length; k++) {
          slots[msg.first + k] = { chunk, k };
        }
        if (msg.show && found && slots[msg.first]) {   // a frame of a drag: drawn at once
          run.playing = false;
          clearTimeout(hideTimer);
          hideAtPicture = false;
          place(anim);
          show(msg.first);
          overlay.style.display = "block";
          send("drawn", msg.first);     // the kernel records the next one
        }
      } else if (msg.type === "play") {
        clearTimeout(hideTimer);
        hideAtPicture = false;
        const first = slots[msg.frame | 0];
        if (!found || !first) return;
        place(first.chunk.anim);
        run.from = Math.max(0, Math.min(slots.length - 1, msg.frame | 0));
        run.interval = Math.max(4, Number(msg.interval_ms) || 40);
        run.substeps = Math.max(1, msg.substeps | 0);
        run.start = performance.now();
        run.reported = run.start;
        run.playing = true;
        run.shown = -1;
        show(run.from);
        overlay.style.display = "block";
        requestAnimationFrame(tick);
      } else if (msg.type === "seek") {
        run.from = Math.max(0, Math.min(slots.length - 1, msg.frame | 0));
        run.start = performance.now();
      } else if (msg.type === "stop") {
        run.playing = false;
        if (run.shown < 0) { send("stopped", 0); return; }
        // stop on a frame the slider can hold (a whole step)
        const step = run.substeps;
        let k = Math.min(slots.length - 1, Math.round(run.shown / step) * step);
        // the step after may not have come yet (the kernel recording slower than Play)
        if (!slots[k]) k = Math.floor(run.shown / step) * step;
        if (k !== run.shown) show(k);
        send("stopped", run.shown);
      } else if (msg.type === "hide") {
        run.playing = false;
        clearTimeout(hideTimer);
        hideAtPicture = true;
        hideTimer = setTimeout(hideNow, HIDE_AFTER_MS);
      }
    }

    function hideNow() {
      hideAtPicture = false;
      clearTimeout(hideTimer);
      if (!run.playing && overlay) overlay.style.display = "none";
    }

    // the figure's visible canvas: ipympl draws each new picture onto it in one drawImage
    function watchPictures(image) {
      const context = image.getContext("2d");
      context.drawImage = function (...args) {
        const out = CanvasRenderingContext2D.prototype.drawImage.apply(this, args);
        if (hideAtPicture) hideNow();
        return out;
      };
    }

    function start() {
      found = findFigure(el);
      if (!found) { timer = setTimeout(start, 100); return; }
      watchPictures(found.image);
      overlay = document.createElement("canvas");
      overlay.className = "lesson-motion-overlay";
      overlay.style.cssText = "position:absolute;pointer-events:none;display:none;";
      found.holder.insertBefore(overlay, found.top);
      ctx = overlay.getContext("2d");
      send("ready");
    }

    model.on("msg:custom", (msg, buffers) => {
      queue = queue.then(() => handle(msg, buffers)).catch(() => {});
    });
    start();
    return () => {
      clearTimeout(timer);
      clearTimeout(hideTimer);
      run.playing = false;
      if (overlay) overlay.remove();
    };
  },
};
