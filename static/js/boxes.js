// Boxes drawn on a canvas over an image: the one way pages draw detections (the zoo's try
// panel, the try-it page, the report's gallery). Text goes through fillText, never markup.
import { gettext } from "./i18n.js";

// Distinct and readable on photos (the datastore's label palette, in order).
export const PALETTE = [
  "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
  "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8", "#800000", "#aaffc3", "#808000",
];

export function colourOf(index) {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

// Draws `image` scaled to fit `maxSide` pixels, then each box: {box: [x1, y1, x2, y2] in the
// image's pixels, or polygon: [[x, y], ...] (a text line's corners), label (text), colour,
// dashed}. A label sits above the box's top-left corner. Returns the scale used.
export function drawDetections(canvas, image, boxes, { maxSide = 360, lineWidth = 2 } = {}) {
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  canvas.width = Math.round(image.width * scale);
  canvas.height = Math.round(image.height * scale);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  drawShapes(ctx, boxes, scale, lineWidth);
  return scale;
}

// The boxes and polygons of drawDetections, on whatever the canvas already holds (the
// gallery draws them on a transparent canvas over its thumbnails), `scale` canvas pixels to
// an image pixel.
export function drawShapes(ctx, boxes, scale, lineWidth = 2) {
  ctx.lineWidth = lineWidth;
  ctx.font = "12px system-ui, sans-serif";
  for (const b of boxes) {
    ctx.setLineDash(b.dashed ? [5, 3] : []);
    ctx.strokeStyle = b.colour;
    let x1, y1;
    if (b.polygon) {
      const points = b.polygon.map(([x, y]) => [x * scale, y * scale]);
      ctx.beginPath();
      points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      ctx.closePath();
      ctx.stroke();
      [x1, y1] = points[0];
    } else {
      const [bx1, by1, bx2, by2] = b.box.map((v) => v * scale);
      ctx.strokeRect(bx1, by1, bx2 - bx1, by2 - by1);
      [x1, y1] = [bx1, by1];
    }
    if (!b.label) continue;
    ctx.setLineDash([]);
    const width = ctx.measureText(b.label).width + 6;
    const top = y1 >= 16 ? y1 - 16 : y1;
    ctx.fillStyle = b.colour;
    ctx.fillRect(x1, top, width, 16);
    ctx.fillStyle = "#fff";
    ctx.fillText(b.label, x1 + 3, top + 12);
  }
  ctx.setLineDash([]);
}

export function loadImage(source) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(gettext("The browser cannot show this image.")));
    image.src = typeof source === "string" ? source : URL.createObjectURL(source);
  });
}
