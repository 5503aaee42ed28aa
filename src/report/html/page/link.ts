// The permalink (model/permalink.ts) on the page: the fragment follows the view (zoom, the player's
// step, the variant, the what-if), opening the page with one restores it, "Copy link" copies it; and a
// what-if's scenario as files (its patches set in the YAML) to download.

import { patchedFiles } from "../../../load/patch.ts";
import { readView, type View, writeView } from "../model/permalink.ts";
import { h } from "./dom.ts";
import type { ReportView } from "./view.ts";

/** The view on show, as the fragment holds it (the range only when zoomed). */
export function currentView(r: ReportView): View {
  const [a, b] = r.axis.range();
  const zoomed = a > r.axis.min || b < r.axis.max;
  return {
    ...(zoomed ? { range: [a, b] as [number, number] } : {}),
    step: r.current,
    ...(r.variant ? { variant: r.variant } : {}),
    ...(Object.keys(r.whatIf).length ? { whatIf: r.whatIf } : {}),
  };
}

/** Writes the view into the URL's fragment, without a history entry or a scroll. */
export function writeLink(r: ReportView): void {
  const fragment = writeView(currentView(r));
  if (location.hash.replace(/^#/, "") === fragment) return;
  try {
    history.replaceState(null, "", fragment ? `#${fragment}` : location.pathname + location.search);
  } catch {
    // A browser refusing to change a file's URL: the link button still shows the link.
  }
}

/** The view the page was opened with; a part it could not read is said on the page, never ignored. */
export async function restoreView(r: ReportView, fragment: string): Promise<void> {
  const { view, problems } = readView(fragment);
  if (view.variant !== undefined && r.payload.variants?.[view.variant]) r.showVariant(view.variant);
  else if (view.variant) problems.push(`variant ${view.variant}: this page has no such variant`);
  if (view.whatIf) await r.applyWhatIf(view.whatIf);
  if (view.step !== undefined) r.select(view.step, false);
  if (view.range) {
    const [a, b] = view.range;
    // After the charts, which are drawn in the microtasks the render queued.
    await new Promise<void>((done) =>
      queueMicrotask(() => {
        r.axis.set(a, b);
        done();
      }),
    );
  }
  const status = document.getElementById("link-status");
  if (status && problems.length) status.textContent = `Not restored from the link: ${problems.join("; ")}.`;
}

/** "Copy link": the page's address with the view on show; shown for copying by hand where the clipboard is closed. */
export function linkBar(r: ReportView): HTMLElement {
  const button = h("button", { type: "button", id: "copy-link" }, "Copy link to this view");
  const status = h("span", { id: "link-status", class: "hint", role: "status" }, "");
  button.addEventListener("click", async () => {
    writeLink(r);
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = "Link copied: it opens this page at this zoom, step and what-if.";
    } catch {
      status.replaceChildren(
        "Copy this link: ",
        h("input", { type: "text", readonly: true, value: url, "aria-label": "Link to this view", size: 40 }),
      );
    }
  });
  return h("span", { class: "link-bar" }, button, " ", status);
}

/** The what-if's scenario as files, each a download: the scenario file and its manifests, the what-if's fields set. */
export function exportLinks(r: ReportView): HTMLElement | null {
  const origin = r.run.scenario.origin;
  if (!r.isWhatIf() || !origin) return null;
  const files = patchedFiles(origin);
  return h(
    "div",
    { id: "whatif-export" },
    h("p", {}, "This what-if as files: run it again with `faultline simulate` on the first."),
    h(
      "ul",
      {},
      ...files.map((f, i) => {
        const name = f.file.split("/").pop() ?? f.file;
        const a = h(
          "a",
          { href: URL.createObjectURL(new Blob([f.text], { type: "application/yaml" })), download: name },
          `Download ${f.file}`,
        );
        if (i === 0) a.id = "whatif-yaml";
        return h("li", {}, a);
      }),
    ),
    h(
      "details",
      {},
      h("summary", {}, `${files[0]!.file} as this run used it`),
      h(
        "pre",
        { id: "whatif-yaml-text", tabindex: 0, "aria-label": "The scenario file's YAML" },
        files[0]!.text,
      ),
    ),
  );
}
