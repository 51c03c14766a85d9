/** The part of jpeg-exif (the EXIF reader pdfkit uses) the service calls. */
declare module 'jpeg-exif' {
  /** The EXIF tags of a JPEG (or TIFF) by name; throws on a file it cannot walk. */
  export function fromBuffer(buffer: Buffer): { Orientation?: unknown } | undefined;
}
