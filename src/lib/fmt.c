/* SPDX-License-Identifier: MIT */
/*
 * A bounded formatter: always NUL-terminates within @size and returns the
 * length it would have written. Supports %% %c %s %d %i %u %o %x %X %p with
 * the flags - 0 + space #, a width and a precision (decimal or *), and the
 * length modifiers hh, h, l, ll, z. An unsupported conversion (%f, %n)
 * ends the output there: what follows could only be read misaligned.
 */
#include "svsm/std.h"

struct fmt_out {
	char *buf;
	size_t size;
	size_t len;
};

static void out_char(struct fmt_out *o, char c)
{
	if (o->len + 1 < o->size) {
		o->buf[o->len] = c;
	}
	o->len++;
}

static void out_repeat(struct fmt_out *o, char c, size_t n)
{
	while (n-- > 0) {
		out_char(o, c);
	}
}

/* One conversion's flags, width and precision. */
struct fmt_spec {
	bool left;
	bool zero;
	bool plus;
	bool space;
	bool alt;
	unsigned width;
	int precision; /* -1: none */
	unsigned longs;
	unsigned shorts;
};

/* @prefix (sign, 0x) then @digits, padded to the width as C says. */
static void out_number(struct fmt_out *o, const struct fmt_spec *f,
		       const char *prefix, size_t prefix_len,
		       const char *digits, size_t n)
{
	size_t zeros = 0;
	size_t total;

	if (f->precision >= 0 && (size_t)f->precision > n) {
		zeros = (size_t)f->precision - n;
	}
	total = prefix_len + zeros + n;
	if (f->zero && !f->left && f->precision < 0 && f->width > total) {
		zeros += f->width - total;
		total = f->width;
	}
	if (!f->left && f->width > total) {
		out_repeat(o, ' ', f->width - total);
	}
	for (size_t i = 0; i < prefix_len; i++) {
		out_char(o, prefix[i]);
	}
	out_repeat(o, '0', zeros);
	for (size_t i = 0; i < n; i++) {
		out_char(o, digits[i]);
	}
	if (f->left && f->width > total) {
		out_repeat(o, ' ', f->width - total);
	}
}

static void out_text(struct fmt_out *o, const struct fmt_spec *f, const char *s,
		     size_t n)
{
	if (!f->left && f->width > n) {
		out_repeat(o, ' ', f->width - n);
	}
	for (size_t i = 0; i < n; i++) {
		out_char(o, s[i]);
	}
	if (f->left && f->width > n) {
		out_repeat(o, ' ', f->width - n);
	}
}

static size_t utoa(uint64_t v, unsigned base, bool upper, char *tmp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0;
	size_t i;

	do {
		rev[n++] = digits[v % base];
		v /= base;
	} while (v != 0);
	for (i = 0; i < n; i++) {
		tmp[i] = rev[n - 1 - i];
	}
	return n;
}

/* The flags, width, precision and length modifiers after a '%'. */
static const char *parse_spec(const char *p, struct fmt_spec *f, va_list *ap)
{
	*f = (struct fmt_spec){.precision = -1};
	for (;; p++) {
		if (*p == '-') {
			f->left = true;
		} else if (*p == '0') {
			f->zero = true;
		} else if (*p == '+') {
			f->plus = true;
		} else if (*p == ' ') {
			f->space = true;
		} else if (*p == '#') {
			f->alt = true;
		} else {
			break;
		}
	}
	if (*p == '*') {
		int w = va_arg(*ap, int);

		if (w < 0) {
			f->left = true;
			w = w == INT32_MIN ? 0 : -w;
		}
		f->width = (unsigned)w;
		p++;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		f->width = f->width * 10u + (unsigned)(*p - '0');
	}
	if (*p == '.') {
		p++;
		f->precision = 0;
		if (*p == '*') {
			int prec = va_arg(*ap, int);

			f->precision = prec < 0 ? -1 : prec;
			p++;
		}
		for (; *p >= '0' && *p <= '9'; p++) {
			f->precision = f->precision * 10 + (*p - '0');
		}
	}
	for (; *p == 'l' || *p == 'z' || *p == 'h'; p++) {
		if (*p == 'h') {
			f->shorts++;
		} else {
			f->longs = *p == 'z' ? 2 : f->longs + 1;
		}
	}
	return p;
}

static int64_t signed_arg(const struct fmt_spec *f, va_list *ap)
{
	if (f->longs >= 1) {
		return (int64_t)va_arg(*ap, long long);
	}
	int v = va_arg(*ap, int);

	if (f->shorts == 1) {
		return (short)v;
	}
	return f->shorts >= 2 ? (signed char)v : v;
}

static uint64_t unsigned_arg(const struct fmt_spec *f, va_list *ap)
{
	if (f->longs >= 1) {
		return (uint64_t)va_arg(*ap, unsigned long long);
	}
	unsigned v = va_arg(*ap, unsigned);

	if (f->shorts == 1) {
		return (unsigned short)v;
	}
	return f->shorts >= 2 ? (unsigned char)v : v;
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in)
{
	struct fmt_out o = {.buf = buf, .size = size, .len = 0};
	va_list ap;
	const char *p;

	va_copy(ap, ap_in);
	for (p = fmt; *p != '\0'; p++) {
		struct fmt_spec f;
		char tmp[24];
		size_t n;

		if (*p != '%') {
			out_char(&o, *p);
			continue;
		}
		p = parse_spec(p + 1, &f, &ap);
		switch (*p) {
		case '%':
			out_char(&o, '%');
			break;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			out_text(&o, &f, tmp, 1);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (s == NULL) {
				s = "(null)";
			}
			for (n = 0; s[n] != '\0' && (f.precision < 0 ||
						     n < (size_t)f.precision);
			     n++) {
			}
			out_text(&o, &f, s, n);
			break;
		}
		case 'd':
		case 'i': {
			int64_t v = signed_arg(&f, &ap);
			uint64_t u =
				v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			const char *sign = v < 0     ? "-"
					   : f.plus  ? "+"
					   : f.space ? " "
						     : "";

			n = (u == 0 && f.precision == 0)
				    ? 0
				    : utoa(u, 10, false, tmp);
			out_number(&o, &f, sign, sign[0] != '\0', tmp, n);
			break;
		}
		case 'u':
		case 'o':
		case 'x':
		case 'X': {
			uint64_t u = unsigned_arg(&f, &ap);
			unsigned base = *p == 'u' ? 10 : *p == 'o' ? 8 : 16;
			const char *prefix = "";
			size_t prefix_len = 0;

			n = (u == 0 && f.precision == 0)
				    ? 0
				    : utoa(u, base, *p == 'X', tmp);
			if (f.alt && u != 0 && base == 16) {
				prefix = *p == 'X' ? "0X" : "0x";
				prefix_len = 2;
			}
			if (f.alt && base == 8 && (n == 0 || tmp[0] != '0') &&
			    (f.precision < 0 || (size_t)f.precision <= n)) {
				prefix = "0";
				prefix_len = 1;
			}
			out_number(&o, &f, prefix, prefix_len, tmp, n);
			break;
		}
		case 'p': {
			uint64_t u = (uint64_t)(uintptr_t)va_arg(ap, void *);

			n = utoa(u, 16, false, tmp);
			f.zero = false;
			out_number(&o, &f, "0x", 2, tmp, n);
			break;
		}
		default:
			/*
			 * Unknown conversion (floating point, %n, a typo):
			 * the arguments after it cannot be located, so stop
			 * here rather than read the wrong ones.
			 */
			out_char(&o, '%');
			out_char(&o, '?');
			goto done;
		}
	}
done:
	va_end(ap);
	if (size > 0) {
		buf[o.len < size ? o.len : size - 1] = '\0';
	}
	return (int)o.len;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
