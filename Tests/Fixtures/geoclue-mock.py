'''A small GeoClue2 for python3-dbusmock: the manager hands out one client; starting it
publishes a location from the parameters (lat, lon, accuracy, speed, heading) and emits
LocationUpdated, as the real service does. Tests move it with the client's
org.freedesktop.GeoClue2.Mock.Move(lat, lon, accuracy), or make it refuse to start
(parameter "refuse": true, as GeoClue does when no agent allows the app).

Run: python3 -m dbusmock --template geoclue-mock.py -p '{"lat": 48.85, "lon": 2.35}'
with DBUS_SYSTEM_BUS_ADDRESS pointing at a private bus.
'''

import dbus
from dbusmock import mockobject

BUS_NAME = 'org.freedesktop.GeoClue2'
MAIN_OBJ = '/org/freedesktop/GeoClue2/Manager'
MAIN_IFACE = 'org.freedesktop.GeoClue2.Manager'
SYSTEM_BUS = True

CLIENT_PATH = '/org/freedesktop/GeoClue2/Client/1'
CLIENT_IFACE = 'org.freedesktop.GeoClue2.Client'
LOCATION_IFACE = 'org.freedesktop.GeoClue2.Location'
MOCK_IFACE = 'org.freedesktop.GeoClue2.Mock'

state = {'count': 0, 'current': '/', 'params': {}}


def publish(client, lat, lon, accuracy, speed=-1.0, heading=-1.0):
    state['count'] += 1
    path = '/org/freedesktop/GeoClue2/Location/%d' % state['count']
    client.AddObject(path, LOCATION_IFACE, {
        'Latitude': dbus.Double(lat), 'Longitude': dbus.Double(lon),
        'Accuracy': dbus.Double(accuracy), 'Altitude': dbus.Double(-1.7976931348623157e308),
        'Speed': dbus.Double(speed), 'Heading': dbus.Double(heading),
        'Description': '', 'Timestamp': dbus.Struct((dbus.UInt64(1700000000 + state['count']), dbus.UInt64(0)), signature='tt'),
    }, [])
    old = state['current']
    state['current'] = path
    client.props[CLIENT_IFACE]['Location'] = dbus.ObjectPath(path)
    client.EmitSignal(CLIENT_IFACE, 'LocationUpdated', 'oo', [dbus.ObjectPath(old), dbus.ObjectPath(path)])


def start(client):
    p = state['params']
    if p.get('refuse'):
        raise dbus.exceptions.DBusException('Geolocation disabled for UID 1000', name='org.freedesktop.DBus.Error.AccessDenied')
    if client.Get(CLIENT_IFACE, 'DesktopId') == '':
        raise dbus.exceptions.DBusException('DesktopId not set', name='org.freedesktop.DBus.Error.AccessDenied')
    client.UpdateProperties(CLIENT_IFACE, {'Active': dbus.Boolean(True)})
    publish(client, p.get('lat', 48.8566), p.get('lon', 2.3522), p.get('accuracy', 25.0),
            p.get('speed', -1.0), p.get('heading', -1.0))


def stop(client):
    client.UpdateProperties(CLIENT_IFACE, {'Active': dbus.Boolean(False)})


def move(client, lat, lon, accuracy):
    publish(client, lat, lon, accuracy)


def load(mock, parameters):
    state['params'] = parameters
    mock.AddMethods(MAIN_IFACE, [
        ('GetClient', '', 'o', 'ret = dbus.ObjectPath("%s")' % CLIENT_PATH),
        ('CreateClient', '', 'o', 'ret = dbus.ObjectPath("%s")' % CLIENT_PATH),
        ('DeleteClient', 'o', '', ''),
    ])
    mock.AddProperties(MAIN_IFACE, {'InUse': dbus.Boolean(False), 'AvailableAccuracyLevel': dbus.UInt32(8)})
    mock.AddObject(CLIENT_PATH, CLIENT_IFACE, {
        'Location': dbus.ObjectPath('/'), 'DistanceThreshold': dbus.UInt32(0), 'TimeThreshold': dbus.UInt32(0),
        'DesktopId': '', 'RequestedAccuracyLevel': dbus.UInt32(0), 'Active': dbus.Boolean(False),
    }, [])
    client = mockobject.objects[CLIENT_PATH]
    client.AddMethod(CLIENT_IFACE, 'Start', '', '', start)
    client.AddMethod(CLIENT_IFACE, 'Stop', '', '', stop)
    client.AddMethod(MOCK_IFACE, 'Move', 'ddd', '', move)
