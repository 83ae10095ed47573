// Streams a skeleton while the list loads. (Not on pages that can 404: a streamed response is already 200.)
export { default } from '@/components/console/Loading';
