// Prints a TCP port on 127.0.0.1 that was free a moment ago (for a client's own fixed-port servers, e.g. Cline's hub).
import net from 'node:net';
const s = net.createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });
