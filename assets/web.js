// The browser door's page (minefield/frontdoor/web_pages.py). textual.js (textual-serve's
// client) does the terminal; this script focuses it as soon as it is there (an app without
// focus hides its footer's keys, and the player's first key would be lost), and offers
// "Start again" once a session has ended.
window.addEventListener("DOMContentLoaded", () => {
  const again = document.getElementById("again");
  if (again) {
    again.addEventListener("click", () => window.location.reload());
  }
  let tries = 0;
  const focus = () => {
    const input = document.querySelector(".xterm-helper-textarea");
    if (input) {
      input.focus();
    } else if (tries++ < 100) {
      window.setTimeout(focus, 50);
    }
  };
  focus();
});
