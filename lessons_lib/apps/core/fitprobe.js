// The page's report of the room an app has, for the kernel's layout (lessons_lib/apps/core/
// layout.py): "width height present" in CSS px, sent whenever the app's column or the window
// changes size, or presenter mode toggles. The kernel checks it (parse_fit) and fits the app.

function visibleHeight(box) {
  // JupyterLab scrolls the notebook inside a panel: the room is that panel, not the window.
  let height = window.innerHeight;
  for (let el = box; el && el !== document.body; el = el.parentElement) {
    const overflow = getComputedStyle(el).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && el.scrollHeight > el.clientHeight + 1) {
      return Math.min(height, el.clientHeight);
    }
  }
  return height;
}

function report(model, el, root) {
  let last = "";
  let timer = null;
  function send() {
    const box = root.parentElement;
    if (!box || !root.isConnected) return;
    const style = getComputedStyle(box);
    const width = Math.floor(box.clientWidth - parseFloat(style.paddingLeft || 0)
                             - parseFloat(style.paddingRight || 0));
    if (!(width > 0)) return;
    const present = document.documentElement.classList.contains("lessons-present") ? 1 : 0;
    const text = `${width} ${Math.floor(visibleHeight(box))} ${present}`;
    if (text === last) return;
    last = text;
    el.dataset.report = text;
    model.set("value", text);
    model.save_changes();
  }
  function later() {
    clearTimeout(timer);
    timer = setTimeout(send, 150);
  }
  const observer = new ResizeObserver(later);
  observer.observe(root.parentElement);
  window.addEventListener("resize", later);
  document.addEventListener("lessons-present", later);
  later();
  return () => {
    clearTimeout(timer);
    observer.disconnect();
    window.removeEventListener("resize", later);
    document.removeEventListener("lessons-present", later);
  };
}

export default {
  render({ model, el }) {
    let stop = null;
    let tries = 0;
    let waiting = null;
    function start() {             // the view is put on the page after it is rendered
      const root = el.isConnected ? el.closest(".lesson-app") : null;
      if (root && root.parentElement) {
        stop = report(model, el, root);
      } else if (++tries < 400) {
        waiting = setTimeout(start, 50);
      }
    }
    start();
    return () => {
      clearTimeout(waiting);
      if (stop) stop();
    };
  },
};
