"""What the loopback stand-ins (tile-server.py, geocoder-server.py) share: a threading HTTP
server on 127.0.0.1 at a free port, which prints the port on the first line of stdout once it
accepts connections and serves until killed."""
import http.server, sys


class Server(http.server.ThreadingHTTPServer):
    # A client that gives up on a request (the app cancels what left the view) is normal here:
    # no traceback for a reset or a broken pipe.
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def serve(handler):
    server = Server(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
