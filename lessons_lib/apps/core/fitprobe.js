// The page's report of the room an app has, for the kernel's layout (lessons_lib/apps/core/
// layout.py): "width height present" in CSS px, sent whenever the app's column or the window
// changes size, or presenter mode toggles. The kernel checks it (parse_fit) and fits the app.
// It also installs three page-wide fixes (pageFixes, below): Tab leaves a figure, a slider is
// named for screen readers, and "Show this case" brings its copy into view.

// The box the notebook scrolls in, from `el` outwards (JupyterLab's panel, Voila's
// #rendered_cells), or null where the window itself scrolls.
function scrollerOf(el) {
  for (let e = el; e && e !== document.body; e = e.parentElement) {
    const overflow = getComputedStyle(e).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && e.scrollHeight > e.clientHeight + 1) {
      return e;
    }
  }
  return null;
}

function visibleHeight(box) {
  // the room is the part of the scrolling box inside the window, not the window
  const height = window.innerHeight;
  const el = scrollerOf(box);
  if (!el) return height;
  const rect = el.getBoundingClientRect();
  const shown = Math.min(height, rect.top + el.clientHeight) - Math.max(0, rect.top);
  return Math.max(1, Math.min(el.clientHeight, shown));
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

// "Show this case" changes the small copy of the app beside its question; where the page is
// too narrow for both, the copy is under the question and may be below the window when the
// button is pressed: the page then scrolls it into view (as little as it takes), and looks
// again once the kernel's change has come (which may move the page's content), unless the
// reader has scrolled meanwhile.
function showCaseInView(button) {
  const row = button.closest(".lesson-question-beside");
  const figure = row ? row.querySelector(".lesson-app .jupyter-matplotlib-figure") : null;
  if (!figure) return;
  const scroller = scrollerOf(figure.parentElement)
    || document.scrollingElement || document.documentElement;
  let left = scroller.scrollTop;         // where the page was left: a change is the reader's
  function look() {
    if (!figure.isConnected || scroller.scrollTop !== left) return;
    const box = figure.getBoundingClientRect();
    const shown = Math.min(window.innerHeight, box.bottom) - Math.max(0, box.top);
    if (box.height > 0 && shown < 0.9 * Math.min(box.height, window.innerHeight)) {
      figure.scrollIntoView({ block: "nearest" });
    }
    left = scroller.scrollTop;
    return true;
  }
  look();
  setTimeout(() => look() && setTimeout(look, 600), 300);
}

// Page-wide fixes, installed by the first app on the page (JupyterLab or Voila):
// - ipympl's figure takes every key pressed while it has the focus (its keydown handler
//   stops the event and prevents its default), Tab included, so a keyboard user who tabbed
//   onto a figure could never leave it (a keyboard trap). Here Tab and Shift+Tab pressed on
//   a figure stop at the document, before ipympl's handler, and keep their default: the
//   focus moves on. The kernel drops the figures' key messages anyway (lessons_lib/apps/
//   core/guard.py). The listener is on the document in the capture phase, so JupyterLab's
//   own key handling (on the document too) still sees the key.
// - A slider's handle (the part that takes the focus) has no name of its own: a screen
//   reader said "slider, 35" without saying which. Each handle is named after its slider's
//   label ("yaw (Y)"): those on the page when an app starts, and any other once it is
//   focused.
// - "Show this case" brings the copy it changes into view (showCaseInView).
function nameSliders(scope) {
  for (const slider of scope.querySelectorAll(".widget-slider")) {
    const label = slider.querySelector(".widget-label");
    const name = label ? label.textContent.trim() : "";
    if (!name) continue;
    for (const handle of slider.querySelectorAll(".noUi-handle")) {
      if (handle.getAttribute("aria-label") !== name) handle.setAttribute("aria-label", name);
    }
  }
}

function pageFixes() {
  if (window.lessonsPageFixes) return;
  window.lessonsPageFixes = true;
  document.addEventListener("click", (event) => {
    const button = event.target && event.target.closest
      ? event.target.closest(".lesson-show-case") : null;
    if (button) showCaseInView(button);
  });
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.key === "Tab" && target && target.closest
        && target.closest(".jupyter-matplotlib-figure")) {
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("focusin", (event) => {
    const slider = event.target && event.target.closest
      ? event.target.closest(".widget-slider") : null;
    if (slider && slider.parentElement) nameSliders(slider.parentElement);
  }, true);
}

export default {
  render({ model, el }) {
    pageFixes();
    let stop = null;
    let tries = 0;
    let waiting = null;
    function start() {             // the view is put on the page after it is rendered
      const root = el.isConnected ? el.closest(".lesson-app") : null;
      if (root && root.parentElement) {
        nameSliders(document);
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
