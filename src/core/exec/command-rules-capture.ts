// Watching the person rather than the project: keystrokes and input devices read, the clipboard
// taken, the screen, the camera or the microphone recorded, another process attached to and its
// memory or system calls read, a terminal session logged. Keys, camera and microphone are refused;
// a screenshot, the clipboard and attaching a debugger are everyday enough to ask.
import { ask, deny, namesOf, type Finding, type SegmentView, before } from './command-view';

/** Input formats of recorders that read a camera, a microphone or the screen. */
const DEVICE_FORMAT = /^(v4l2|video4linux2|avfoundation|dshow|vfwcap|alsa|pulse|oss|jack|openal|sndio|x11grab|kmsgrab|gdigrab|fbdev|lavfi)$/i;
/** Programs whose one job is to take a picture or a recording of the desk, the room or the screen. */
const RECORDERS = /^(fswebcam|imagesnap|streamer|uvccapture|arecord|parec|parecord|pw-record|pw-cat|rec|sox-rec|audiorecorder|wf-recorder|simplescreenrecorder|recordmydesktop|byzanz-record|obs)$/;
const SCREENSHOTS = /^(scrot|grim|maim|import|xwd|gnome-screenshot|spectacle|flameshot|screencapture|shutter|ksnip|deepin-screenshot|xfce4-screenshooter)$/;
/** Keyboards, mice and terminals as devices (module-level: it is tested on every argument of every argv). */
const INPUT_DEVICE = /^\/dev\/(input\/|uinput$|hidraw|tty\d)/;
/** Debuggers and tracers that attach to a running process. */
const ATTACHERS = /^(strace|ltrace|gdb|lldb|perf|bpftrace|gcore|pmap|dtrace|dtruss|procdump)$/;
const CLIPBOARD = /^(pbpaste|xclip|xsel|wl-paste|get-clipboard|gcb|clipnotify|copyq|clipman)$/;

/**
 * Every program captureProgramRule names, for the judge's index of program-specific rule parts
 * (the dispatch contract at RULES in command-dispatch.ts): a new name below goes into one of these.
 */
export const CAPTURE_PROGRAMS: readonly string[] = [/^(xinput|evtest|showkey|logkeys|xev|xspy|xkeysnail|keylogger|lkl|uberkey|xdotool|ydotool|wtype|ffmpeg|gst-launch-1\.0|tmux|screen)$/, ATTACHERS, RECORDERS, SCREENSHOTS, CLIPBOARD].flatMap(namesOf);

/** An input device read by any program (an argument or a `<` redirection). */
function readsDevice(v: SegmentView): boolean {
  return v.args.some((a) => INPUT_DEVICE.test(a)) || v.seg.redirects.some((r) => r.op === '<' && /^\/dev\/input\//.test(r.target.text));
}

/** The one check that needs no name: a program reading the keyboard, mouse or a terminal device. */
export function captureDeviceRule(v: SegmentView): Finding[] {
  return readsDevice(v) ? [deny('data_exfiltration', `${v.name} reads what is typed or the input devices`)] : [];
}

/** The checks of CAPTURE_PROGRAMS by name; a device read is captureDeviceRule's finding, made once. */
export function captureProgramRule(v: SegmentView): Finding[] {
  const { name, args } = v;
  if (readsDevice(v)) return [];
  const w = args.filter((a) => !a.startsWith('-'));
  // Keystrokes: a tool that prints every key pressed.
  if (/^(xinput)$/.test(name) && /^(test|test-xi2)$/.test(w[0] ?? '') || /^(evtest|showkey|logkeys|xev|xspy|xkeysnail|keylogger|lkl|uberkey)$/.test(name) && !args.some((a) => /^--?(help|version)$/.test(a)))
    return [deny('data_exfiltration', `${name} reads what is typed or the input devices`)];
  // Typing into other windows, or reading which window and title the person has open.
  if (name === 'xdotool' && w.some((x) => /^(type|key|keydown|getactivewindow|getwindowname|getwindowfocus|search|selectwindow)$/.test(x)) || name === 'ydotool' || name === 'wtype')
    return [ask('data_exfiltration', `${name} types into or reads the person's windows`)];
  if (RECORDERS.test(name) || name === 'ffmpeg' && args.some((a, i) => before(args, i) === '-f' && DEVICE_FORMAT.test(a) && a !== 'lavfi') || name === 'gst-launch-1.0' && args.some((a) => /^(v4l2src|pulsesrc|alsasrc|ximagesrc|avfvideosrc|osxaudiosrc)$/.test(a)))
    return [deny('data_exfiltration', `${name} records the camera, the microphone or the screen`)];
  if (SCREENSHOTS.test(name) && !args.some((a) => /^--?(help|version)$/.test(a))) return [ask('data_exfiltration', `${name} takes a picture of the screen`)];
  if (CLIPBOARD.test(name) && (name !== 'xclip' && name !== 'xsel' || args.some((a) => /^-(o|out)$|^--output$|^-[bpsk]*o[bpsk]*$/.test(a)))) return [ask('data_exfiltration', `${name} reads the clipboard, which often holds passwords`)];
  // Another process attached to: its memory, its reads and writes (passwords typed into it) are seen.
  if (ATTACHERS.test(name) && (args.some((a) => /^(-p|--pid|--attach-pid|attach)$|^--pid=|^-p\d/.test(a)) || name === 'gcore'))
    return [ask('data_exfiltration', `${name} attaches to another process and reads its memory or what it reads and writes`)];
  if (name === 'tmux' && /^(pipe-pane|pipep)$/.test(w[0] ?? '') || name === 'screen' && args.some((a) => /^-L$|^-Logfile$/.test(a)) && !args.some((a) => /^-(S|r|x|ls|list)$/.test(a)))
    return [ask('data_exfiltration', `${name} logs everything shown in a terminal session`)];
  return [];
}
