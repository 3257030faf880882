/**
 * Question templates for the demo catalog: paraphrases per tool, with `{param}` slots filled from the pools in
 * slots.ts. A slot's text in the question is the argument's value, so every generated question comes with the
 * exact arguments a correct call uses.
 */
export const TEMPLATES: Record<string, string[]> = {
  add_numbers: ["What is {a} plus {b}?", "Add {a} and {b}", "Sum of {a} and {b}?", "Compute {a} + {b}"],
  subtract_numbers: [
    "What is {a} minus {b}?",
    "Subtract {b} from {a}",
    "Take {b} away from {a}",
    "{a} minus {b} is?",
  ],
  multiply_numbers: [
    "What is {a} times {b}?",
    "Multiply {a} by {b}",
    "Product of {a} and {b}?",
    "{a} multiplied by {b}",
  ],
  divide_numbers: [
    "What is {a} divided by {b}?",
    "Divide {a} by {b}",
    "{a} over {b} is?",
    "Split {a} into {b} equal parts",
  ],
  power: [
    "What is {base} to the power of {exponent}?",
    "Raise {base} to the {exponent}",
    "{base} to the power {exponent}",
  ],
  square_root: [
    "What is the square root of {x}?",
    "Square root of {x}",
    "Compute the root of {x}",
    "sqrt of {x} please",
  ],
  evaluate_expression: [
    "Evaluate {expression}",
    "Calculate {expression}",
    "What is the value of {expression}?",
    "Work out {expression}",
  ],
  percentage_of: [
    "What is {percent} percent of {value}?",
    "{percent}% of {value}?",
    "Take {percent} percent of {value}",
  ],
  round_number: [
    "Round {x} to {digits} decimal places",
    "Round {x} with {digits} decimals",
    "{x} rounded to {digits} digits",
  ],
  factorial: ["What is the factorial of {n}?", "Compute {n} factorial", "Factorial of {n}"],
  greatest_common_divisor: [
    "What is the greatest common divisor of {a} and {b}?",
    "GCD of {a} and {b}",
    "Highest common factor of {a} and {b}?",
  ],
  is_prime: ["Is {n} a prime number?", "Is {n} prime?", "Check if {n} is prime"],
  fibonacci: ["What is the {n}th Fibonacci number?", "Fibonacci number {n}", "Compute Fibonacci of {n}"],
  convert_length: [
    "Convert {value} {from_unit} to {to_unit}",
    "How many {to_unit} is {value} {from_unit}?",
    "{value} {from_unit} in {to_unit}?",
    "What is {value} {from_unit} in {to_unit}?",
  ],
  convert_mass: [
    "Convert {value} {from_unit} to {to_unit}",
    "How many {to_unit} are {value} {from_unit}?",
    "Weight of {value} {from_unit} in {to_unit}?",
  ],
  convert_volume: [
    "Convert {value} {from_unit} of water to {to_unit}",
    "How many {to_unit} is a volume of {value} {from_unit}?",
    "Volume {value} {from_unit} in {to_unit}",
  ],
  convert_speed: [
    "Convert a speed of {value} {from_unit} to {to_unit}",
    "How fast is {value} {from_unit} in {to_unit}?",
    "Speed {value} {from_unit} in {to_unit}",
  ],
  convert_data: [
    "Convert {value} {from_unit} of data to {to_unit}",
    "How many {to_unit} is a file of {value} {from_unit}?",
    "Data size {value} {from_unit} in {to_unit}",
  ],
  convert_duration: [
    "Convert a duration of {value} {from_unit} to {to_unit}",
    "How many {to_unit} are in {value} {from_unit} of time?",
    "Time span {value} {from_unit} in {to_unit}",
  ],
  convert_temperature: [
    "Convert {value} degrees {from_unit} to {to_unit}",
    "What is a temperature of {value} {from_unit} in {to_unit}?",
    "{value} degrees {from_unit} in degrees {to_unit}?",
  ],
  distance_between_cities: [
    "How far is {from_city} from {to_city}?",
    "Distance between {from_city} and {to_city}",
    "How many km from {from_city} to {to_city}?",
  ],
  distance_between_coordinates: [
    "Distance from latitude {lat1} longitude {lon1} to latitude {lat2} longitude {lon2}",
    "How far apart are the points {lat1}, {lon1} and {lat2}, {lon2}?",
    "Great-circle distance between coordinates {lat1} {lon1} and {lat2} {lon2}",
  ],
  body_mass_index: [
    "What is the BMI for {weight_kg} kg and {height_m} m?",
    "Body mass index of someone weighing {weight_kg} kg at {height_m} m tall",
    "BMI with weight {weight_kg} and height {height_m}",
  ],
  word_count: ['How many words are in "{text}"?', 'Count the words in "{text}"', 'Word count of "{text}"'],
  character_count: [
    'How many characters are in "{text}"?',
    'Count the characters of "{text}"',
    'Length in characters of "{text}"',
  ],
  reverse_text: ['Reverse "{text}"', 'Write "{text}" backwards', 'What is "{text}" reversed?'],
  uppercase_text: ['Convert "{text}" to upper case', 'Make "{text}" all capitals', 'Uppercase "{text}"'],
  lowercase_text: ['Convert "{text}" to lower case', 'Make "{text}" all small letters', 'Lowercase "{text}"'],
  title_case: ['Put "{text}" in title case', 'Capitalise every word of "{text}"', 'Title case "{text}"'],
  count_vowels: [
    'How many vowels are in "{text}"?',
    'Count the vowels in "{text}"',
    'Number of vowels of "{text}"',
  ],
  is_palindrome: [
    'Is "{text}" a palindrome?',
    'Check if "{text}" reads the same backwards',
    'Palindrome test for "{text}"',
  ],
  slugify: ['Make a URL slug from "{text}"', 'Slugify "{text}"', 'What is the slug for the title "{text}"?'],
  longest_word: [
    'What is the longest word in "{text}"?',
    'Find the longest word of "{text}"',
    'Longest word in "{text}"',
  ],
  count_occurrences: [
    'How many times does "{word}" occur in "{text}"?',
    'Count "{word}" in "{text}"',
    'Occurrences of "{word}" in "{text}"',
  ],
  regex_find_all: [
    'Find all matches of "{pattern}" in "{text}"',
    'Which parts of "{text}" match the regex "{pattern}"?',
    'Regex "{pattern}" matches in "{text}"',
  ],
  regex_replace: [
    'In "{text}" replace "{pattern}" with "{replacement}"',
    'Substitute regex "{pattern}" by "{replacement}" in "{text}"',
    'Replace matches of "{pattern}" in "{text}" with "{replacement}"',
  ],
  sha256_hash: ['What is the SHA-256 hash of "{text}"?', 'SHA-256 of "{text}"', 'Hash "{text}" with sha256'],
  md5_hash: ['What is the MD5 hash of "{text}"?', 'MD5 of "{text}"', 'Hash "{text}" with md5'],
  sha1_hash: ['What is the SHA-1 hash of "{text}"?', 'SHA-1 of "{text}"', 'Hash "{text}" with sha1'],
  base64_encode: ['Encode "{text}" in Base64', 'Base64 of "{text}"', 'Convert "{text}" to base64'],
  base64_decode: [
    'Decode the Base64 "{data}"',
    'What text is the base64 "{data}"?',
    'Base64 decode "{data}"',
  ],
  url_encode: [
    'URL-encode "{text}"',
    'Percent-encode "{text}" for a URL',
    'Escape "{text}" for use in a URL',
  ],
  url_decode: [
    'URL-decode "{text}"',
    'Decode the percent-encoded "{text}"',
    'Unescape the URL text "{text}"',
  ],
  hex_encode: [
    'What are the hex bytes of "{text}"?',
    'Hex encode "{text}"',
    'Convert "{text}" to hexadecimal',
  ],
  rot13: ['Apply ROT13 to "{text}"', 'ROT13 "{text}"', 'Encode "{text}" with rot13'],
  random_integer: [
    "Pick a random number between {min} and {max} with seed {seed}",
    "Random integer from {min} to {max}, seed {seed}",
    "Give me a random number in {min}..{max} using seed {seed}",
  ],
  roll_dice: [
    "Roll {count} dice with {sides} sides using seed {seed}",
    "Throw {count} dice of {sides} sides, seed {seed}",
    "Dice roll: {count} dice, {sides} sides each, seed {seed}",
  ],
  shuffle_words: [
    'Shuffle the words of "{text}" with seed {seed}',
    'Randomly reorder "{text}" using seed {seed}',
    'Shuffle "{text}", seed {seed}',
  ],
  random_password: [
    "Generate a password of {length} characters with seed {seed}",
    "Random password, length {length}, seed {seed}",
    "Make a {length} character password using seed {seed}",
  ],
  add_days: [
    "What date is {days} days after {date}?",
    "Add {days} days to {date}",
    "{date} plus {days} days",
  ],
  convert_timezone: [
    "When it is {datetime} in {from_zone}, what time is it in {to_zone}?",
    "Convert {datetime} from {from_zone} to {to_zone}",
    "{datetime} {from_zone} time in {to_zone}?",
  ],
  day_of_week: ["What day of the week is {date}?", "Which weekday was {date}?", "Day of the week for {date}"],
  days_between: [
    "How many days are there between {start} and {end}?",
    "Days from {start} to {end}",
    "Count the days between {start} and {end}",
  ],
  days_in_month: [
    "How many days are in month {month} of {year}?",
    "Number of days in {year} month {month}",
    "Days in month {month} of year {year}",
  ],
  format_date: [
    "Write the date {date} in {locale} format",
    "Format {date} for the {locale} locale",
    "How is {date} written in {locale}?",
  ],
  is_leap_year: ["Is {year} a leap year?", "Was {year} a leap year?", "Leap year check for {year}"],
  week_number: ["What week number is {date}?", "ISO week of {date}", "Which calendar week is {date} in?"],
  count_lines: [
    "How many lines does {path} have?",
    "Count the lines in {path}",
    "Line count of the file {path}",
  ],
  csv_column_max: [
    "What is the largest {column} in {path}?",
    "Maximum of the {column} column in {path}",
    "Which row of {path} has the highest {column}?",
  ],
  csv_column_sum: [
    "Sum the {column} column of {path}",
    "What is the total {column} in {path}?",
    "Add up {column} in {path}",
  ],
  csv_row_count: [
    "How many rows does {path} have?",
    "Count the data rows of {path}",
    "Number of records in {path}",
  ],
  file_size: ["How big is the file {path}?", "Size of {path} in bytes", "How many bytes is {path}?"],
  json_get: [
    "What is {key} in {path}?",
    "Read {key} from {path}",
    "Get the value of {key} in the JSON file {path}",
  ],
  json_keys: [
    "What keys does {path} have?",
    "List the top-level keys of {path}",
    "Which fields are in the JSON file {path}?",
  ],
  list_files: [
    "List the files in the sandbox",
    "Which files do I have?",
    "Show me my files",
    "What files are in the folder?",
  ],
  read_file: ["Show me the contents of {path}", "Read the file {path}", "What is in {path}?"],
  write_file: [
    'Write "{content}" to {path}',
    'Save "{content}" into the file {path}',
    'Create {path} containing "{content}"',
  ],
};
