// The host of a head atlas saved as one HTML file (attnlab.export.standalone.atlas_html): the
// Atlas view (atlas.js) on a model (widget_model.js) holding the file's own atlas. Picking a
// statistic, a head or a sort works in the file; an exemplar shows its text and place, and the
// file's note says that opening it in the Real model needs `attnlab serve`. No request is made.

import view from "./atlas.js";
import { fileData, showNote } from "./standalone_host.js";
import { createModel } from "./widget_model.js";

function start(el) {
  const data = fileData(document);
  const model = createModel({ atlas: data.atlas, error: null, statistic: data.atlas.statistics[0].key, layer: 0, head: 0, sort: null, links: false, openable: false }, () => {});
  showNote(document, data);
  view.render({ model, el });
}

start(document.getElementById("attnlab-view"));
