/** A file the domain hands over (stream + metadata) as a private attachment response. */
export function attachmentResponse(file: {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  filename: string;
}): Response {
  return new Response(file.body, {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.size),
      'content-disposition': `attachment; filename="${file.filename}"`,
      'cache-control': 'private, no-store',
    },
  });
}
