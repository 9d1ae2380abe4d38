// pwa/js/ui/qr.js imports qrcode-generator as the app serves it (/vendor/qrcode/qrcode.mjs, an ES
// module whose default export is the factory); the package's own declarations describe it.
import qrcode from "qrcode-generator";
export default qrcode;
